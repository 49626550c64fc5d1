import type { MariadbTarget, MysqlTarget } from '@sledge/protocol';

/** Targets this package serves. */
export type MyTarget = MysqlTarget | MariadbTarget;

/**
 * One engine of the MySQL family, as data. The SQL of an engine is read
 * per file from sql/<dialect>/tprocc/, falling back to each directory of
 * `dialectFallback` in turn (MariaDB keeps only the files that differ from
 * MySQL's).
 */
export interface Flavour<E extends MyTarget['engine'] = MyTarget['engine']> {
  readonly engine: E;
  /** Name used in messages ("MariaDB"). */
  readonly display: string;
  readonly dialect: string;
  readonly dialectFallback: readonly string[];
}

export const MYSQL: Flavour<'mysql'> = { engine: 'mysql', display: 'MySQL', dialect: 'mysql', dialectFallback: [] };
export const MARIADB: Flavour<'mariadb'> = { engine: 'mariadb', display: 'MariaDB', dialect: 'mariadb', dialectFallback: ['mysql'] };
