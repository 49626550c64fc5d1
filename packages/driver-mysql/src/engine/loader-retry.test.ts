import { describe, expect, it } from 'vitest';
import type { GeneratedTable } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';
import { LOCK_TABLE_FULL_RETRIES, MyLoader } from './loader.js';

/** A loader whose one-transaction load is scripted: each call takes the next outcome. */
function scripted(outcomes: (Error | null)[]): { loader: MyLoader; logs: string[]; calls: () => number } {
  const logs: string[] = [];
  let calls = 0;
  const loader = Object.create(MyLoader.prototype) as MyLoader;
  Object.assign(loader, {
    flavour: { display: 'MariaDB' },
    log: (t: string) => logs.push(t),
    t: { host: '127.0.0.1', port: 3306 },
    loadOnce: async () => {
      const o = outcomes[Math.min(calls++, outcomes.length - 1)];
      if (o) throw o;
    },
  });
  return { loader, logs, calls: () => calls };
}

const lockTableFull = () => Object.assign(new Error('The total number of locks exceeds the lock table size'), { errno: 1206, code: 'ER_LOCK_TABLE_FULL' });
const tables = [{ table: 'item', rows: 10, data: '' }] as unknown as GeneratedTable[];

describe('MySQL loader and InnoDB error 1206 (lock table full)', () => {
  it('loads the rolled-back unit again and says so', async () => {
    const { loader, logs, calls } = scripted([lockTableFull(), lockTableFull(), null]);
    await loader.load(tables);
    expect(calls()).toBe(3);
    expect(logs).toEqual([
      `MariaDB loader: item ran out of lock memory (error 1206), loading it again (1 of ${LOCK_TABLE_FULL_RETRIES})`,
      `MariaDB loader: item ran out of lock memory (error 1206), loading it again (2 of ${LOCK_TABLE_FULL_RETRIES})`,
    ]);
  });

  it('gives up after the retries with an error that says what to change', async () => {
    const { loader, calls } = scripted([lockTableFull()]);
    const e = await loader.load(tables).then(() => null, (x: unknown) => x);
    expect(calls()).toBe(LOCK_TABLE_FULL_RETRIES + 1);
    expect(e).toBeInstanceOf(SledgeError);
    expect((e as SledgeError).code).toBe('SLEDGE_E_DB');
    expect((e as SledgeError).message).toMatch(/ran out of lock memory loading item \(also after 3 retries\): raise innodb_buffer_pool_size/);
  }, 20_000);

  it('does not retry other errors', async () => {
    const { loader, calls, logs } = scripted([Object.assign(new Error('Duplicate entry'), { errno: 1062 })]);
    const e = await loader.load(tables).then(() => null, (x: unknown) => x);
    expect(calls()).toBe(1);
    expect(logs).toEqual([]);
    expect((e as SledgeError).message).toBe('MariaDB failed loading item: Duplicate entry');
  });
});
