import type * as Pg from 'pg';
import type * as PgCopyStreams from 'pg-copy-streams';

/**
 * The client libraries are loaded on first use, not at import time, so this
 * package imports cleanly even when `pg` is missing and probe() can say why.
 */
export type PgLib = typeof Pg;
export type PgCopyLib = typeof PgCopyStreams;

let pgLib: Promise<PgLib> | undefined;
let copyLib: Promise<PgCopyLib> | undefined;

export function loadPg(): Promise<PgLib> {
  pgLib ??= import('pg').catch((e: unknown) => {
    pgLib = undefined;
    throw e;
  });
  return pgLib;
}

export function loadPgCopy(): Promise<PgCopyLib> {
  copyLib ??= import('pg-copy-streams')
    .then((m) => {
      // CommonJS module: the named export comes through cjs-module-lexer or the default object.
      const lib = (m as PgCopyLib & { default?: PgCopyLib }).default ?? m;
      if (typeof lib.from !== 'function') throw new Error('pg-copy-streams has no from()');
      return lib;
    })
    .catch((e: unknown) => {
      copyLib = undefined;
      throw e;
    });
  return copyLib;
}
