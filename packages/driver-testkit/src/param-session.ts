import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Driver, ParamSession } from '@sledge/core';
import type { Target } from '@sledge/protocol';

/** An engine's packages/sql/<engine>/script/ files as statements (pgbench's tables). */
export interface PgbenchTablesSql {
  drop: readonly string[];
  tables: readonly string[];
  keys: readonly string[];
}

/** The statements of an engine's script files, from its @sledge/sql set. */
export function pgbenchTablesSqlOf(set: { script(file: string): string[] }): PgbenchTablesSql {
  return { drop: set.script('drop.sql'), tables: set.script('tables.sql'), keys: set.script('keys.sql') };
}

export interface ParamSessionContractOptions<T extends Target> {
  name: string;
  driver: Driver<T>;
  /** A target whose database exists (a file engine's is created by the session). */
  target: T;
  sql: PgbenchTablesSql;
  /** Creates the target's database where the engine needs one (as pgbench -i, the session does not); `cleanup` drops it. */
  prepare?(): Promise<void>;
  cleanup?(): Promise<void>;
}

/**
 * Driver.openParamSession, the script workload's VU session, on pgbench's
 * tables: parameters bound in the engine's placeholder syntax (never pasted:
 * a value with quotes and a semicolon comes back as sent), rows keyed by
 * column name, transactions the caller opens, errors that throw and are
 * classified while the session stays usable.
 */
export function paramSessionContract<T extends Target>(o: ParamSessionContractOptions<T>): void {
  describe(`${o.name}: parameter session (script workload)`, () => {
    let s: ParamSession;
    const p = (n: number): string => s.placeholder(n);
    const count = async (bid: number): Promise<number> => Number((await s.run(`SELECT count(*) AS n FROM pgbench_branches WHERE bid = ${p(1)}`, [bid]))[0]?.['n']);

    beforeAll(async () => {
      await o.prepare?.();
      s = await o.driver.openParamSession!(o.target, { name: 'testkit-param', log: () => undefined, create: true });
      for (const st of [...o.sql.drop, ...o.sql.tables, ...o.sql.keys]) await s.run(st, []);
    });
    afterAll(async () => {
      if (!s) return;
      for (const st of o.sql.drop) await s.run(st, []).catch(() => undefined);
      await s.close();
      await o.cleanup?.();
    });

    it('binds parameters in the engine placeholder syntax; rows come keyed by column name', async () => {
      const text = "it's; DROP TABLE pgbench_branches; --";
      expect(await s.run(`INSERT INTO pgbench_branches (bid, bbalance, filler) VALUES (${p(1)}, ${p(2)}, ${p(3)})`, [1, -42, text])).toEqual([]);
      const rows = await s.run(`SELECT bid, bbalance, filler FROM pgbench_branches WHERE bid = ${p(1)} AND bbalance < ${p(2)}`, [1, 0]);
      expect(rows.length).toBe(1);
      expect(Number(rows[0]!['bid'])).toBe(1);
      expect(Number(rows[0]!['bbalance'])).toBe(-42);
      expect(String(rows[0]!['filler']).trimEnd()).toBe(text);
      expect(await s.run(`SELECT bid FROM pgbench_branches WHERE bid = ${p(1)}`, [999])).toEqual([]);
    });

    it('a transaction the caller opens rolls back or commits', async () => {
      await s.begin();
      await s.run(`INSERT INTO pgbench_branches (bid, bbalance) VALUES (${p(1)}, ${p(2)})`, [2, 0]);
      await s.rollback();
      expect(await count(2)).toBe(0);
      await s.begin();
      await s.run(`INSERT INTO pgbench_branches (bid, bbalance) VALUES (${p(1)}, ${p(2)})`, [3, 7]);
      await s.commit();
      expect(await count(3)).toBe(1);
    });

    it('a database error throws, is classified, and the session goes on', async () => {
      await s.begin();
      const e = await s.run(`INSERT INTO pgbench_branches (bid, bbalance) VALUES (${p(1)}, ${p(2)})`, [1, 0]).then(() => undefined, (x: unknown) => x);
      await s.rollback();
      expect(e).toBeDefined();
      expect(o.driver.classifyError(e).kind).toBe('constraint');
      expect(await count(1)).toBe(1);
    });
  });
}
