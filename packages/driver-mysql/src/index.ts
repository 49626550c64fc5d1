import type { Driver } from '@sledge/core';
import type { MariadbTarget, MysqlTarget } from '@sledge/protocol';
import { mysqlFamilyDriver } from './driver.js';
import { MARIADB, MYSQL } from './engine/flavour.js';

/** MySQL 8 driver (engine 'mysql'). */
export const mysqlDriver: Driver<MysqlTarget> = mysqlFamilyDriver<MysqlTarget>(MYSQL);
/** MariaDB driver (engine 'mariadb'): MySQL's SQL with per-file MariaDB overrides. */
export const mariadbDriver: Driver<MariadbTarget> = mysqlFamilyDriver<MariadbTarget>(MARIADB);

export { mysqlFamilyDriver, type FamilyOptions } from './driver.js';
export { MARIADB, MYSQL, type Flavour, type MyTarget } from './engine/flavour.js';
export { classifyError } from './engine/errors.js';
