import { createRequire } from 'node:module';
import { TproccVuInputs, type TxInputs } from '@sledge/core';
import { DEFAULT_MIX, type TxType } from '@sledge/protocol';
import { sqlFor } from './sqlfiles.js';
import { loadMyVuLoop } from '@sledge/worker-native';
import { describe, expect, it } from 'vitest';
import { MARIADB, MYSQL } from '../engine/flavour.js';
import { mariadbDriver, mysqlDriver } from '../index.js';
import { nativeVuSpec, nativeVuUnsupported } from './hooks.js';
import { callParams, callStatements } from './vu.js';

const { format } = createRequire(import.meta.url)('mysql2') as { format(sql: string, values: unknown[]): string };

const base = {
  host: 'db.example', port: 3307, socket: '', user: 'tpcc', password: 'pw', database: 'tpccdb',
  ssl: false, sslCa: '', sslCert: '', sslKey: '', prepared: false, noStoredProcs: false,
};
const maria = { engine: 'mariadb' as const, ...base, purge: false };
const mysql = { engine: 'mysql' as const, ...base };

describe('tprocc nativeVu (MariaDB C connector loop)', () => {
  it('is offered by both flavours, with the connection and the CALLs of calls.sql', () => {
    for (const [driver, target, flavour] of [
      [mariadbDriver, maria, MARIADB],
      [mysqlDriver, mysql, MYSQL],
    ] as const) {
      const native = driver.workloads.tprocc!.nativeVu!;
      expect(native.name).toBe('the native MariaDB C connector loop');
      const spec = native.spec(target as never);
      expect(spec).toEqual({
        kind: 'libmariadb', host: 'db.example', port: 3307, socket: '', user: 'tpcc', password: 'pw', database: 'tpccdb',
        statements: callStatements(sqlFor(flavour)),
      });
      expect(nativeVuSpec(target, sqlFor(flavour)).statements.neworder).toMatch(/^CALL neword\(\?/);
    }
  });

  it('leaves targets with settings it does not implement to mysql2', () => {
    expect(nativeVuUnsupported(maria)).toBeUndefined();
    expect(nativeVuUnsupported({ ...maria, prepared: true })).toMatch(/target\.prepared/);
    expect(nativeVuUnsupported({ ...maria, noStoredProcs: true })).toMatch(/target\.noStoredProcs/);
    expect(nativeVuUnsupported({ ...mysql, ssl: true })).toMatch(/target\.ssl/);
  });

  const loop = loadMyVuLoop();
  it.skipIf(!loop.available)('draws the inputs of core\'s TproccVuInputs and sends the CALL text mysql2 would (5000 draws, 3 warehouses)', () => {
    if (!loop.available) return;
    const o = { seed: 7, warehouses: 3, position: 4, activeVus: 3, allWarehouse: false, mix: DEFAULT_MIX, client: 0 };
    const stream = loop.testInputs(o, 5000);
    const wl = new TproccVuInputs(o.seed, o);
    const calls = callStatements(sqlFor(MARIADB));
    let byname = 0;
    for (const d of stream.draws) {
      const type: TxType = wl.nextType();
      const input = wl.input(type);
      expect(d.type).toBe(type);
      expect(d.input).toEqual(input);
      // The native loop fills each ? of the CALL with its literal in turn.
      const parts = calls[type].split('?');
      const nativeSql = parts.map((p, k) => p + (k < d.params.length ? d.params[k] : '')).join('');
      expect(nativeSql).toBe(format(calls[type], callParams(type, input as TxInputs[typeof type])));
      if (type === 'payment' && (input as TxInputs['payment']).byname) byname++;
    }
    expect(byname).toBeGreaterThan(100);
  });
});
