import type { TproccTarget } from '@sledge/core';
import type { MariadbTarget, MysqlTarget } from '@sledge/protocol';

/** Targets this package serves. */
export type MyTarget = MysqlTarget | MariadbTarget;
/** A target with the job's TPROC-C schema options (storageEngine, partition, historyPk): what the TPROC-C hooks get. */
export type MyTproccTarget = TproccTarget<MyTarget>;

/**
 * One engine of the MySQL family, as data. Its SQL is read by engine through
 * @sledge/sql, whose fallback table gives MariaDB MySQL's file wherever it
 * has none of its own.
 */
export interface Flavour<E extends MyTarget['engine'] = MyTarget['engine']> {
  readonly engine: E;
  /** Name used in messages ("MariaDB"). */
  readonly display: string;
}

export const MYSQL: Flavour<'mysql'> = { engine: 'mysql', display: 'MySQL' };
export const MARIADB: Flavour<'mariadb'> = { engine: 'mariadb', display: 'MariaDB' };
