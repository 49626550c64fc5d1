import { describe, expect, it } from 'vitest';
import { DuckdbTarget, PostgresqlTarget, SqliteTarget, parseTarget } from '@sledge/protocol';
import { collect, defaultsOf, fieldKeyFor, fieldsOf, fromFormValue } from './fields.js';
import { collectTprocc, tprocc, tproccDefaults, tproccSchemaFields, tproccToForm, TPROCC_FIELDS } from '../workloads/tprocc/form.js';

const schema = (s: unknown) => JSON.parse(JSON.stringify(s)) as { properties: Record<string, unknown> };

describe('fieldsOf (target schemas as the server publishes them)', () => {
  it('turns the PostgreSQL target into grouped fields with secrets and enums', () => {
    const fields = fieldsOf(schema(PostgresqlTarget));
    const byName = Object.fromEntries(fields.map((f) => [f.name, f]));
    expect(byName['engine']).toBeUndefined();
    expect(byName['password']).toMatchObject({ kind: 'string', secret: true, group: 'connection', title: 'Password' });
    expect(byName['port']).toMatchObject({ kind: 'integer', minimum: 1, maximum: 65535, default: 5432 });
    expect(byName['sslmode']).toMatchObject({ kind: 'enum', options: ['disable', 'prefer', 'require', 'verify-full'] });
    expect(byName['partition']).toBeUndefined();
    // Partitioning is a TPROC-C schema option now (the Schema page's fields), still a boolean of the schema group.
    const schemaByName = Object.fromEntries(tproccSchemaFields('postgresql').map((f) => [f.name, f]));
    expect(schemaByName['partition']).toMatchObject({ kind: 'boolean', group: 'schema' });
    expect(byName['vacuum']).toMatchObject({ group: 'driver' });
  });

  it('collects typed values and leaves unparsable numbers for the server to name', () => {
    const fields = fieldsOf(schema(SqliteTarget));
    const values = { ...defaultsOf(fields), busyTimeoutMs: '25x' };
    expect(collect(fields, values)).toEqual({ file: 'tprocc.sqlite', busyTimeoutMs: '25x', synchronous: 'normal' });
    const port = fieldsOf(schema(PostgresqlTarget)).find((f) => f.name === 'port')!;
    expect(fromFormValue(port, ' 5433 ')).toBe(5433);
    expect(fromFormValue(port, '')).toBeUndefined();
  });

  it('leaves out a blank optional field whose pattern refuses "" (DuckDB memory limit): the target parses', () => {
    const fields = fieldsOf(schema(DuckdbTarget));
    const limit = fields.find((f) => f.name === 'memoryLimit')!;
    expect(limit.pattern).toBeDefined();
    const blank = collect(fields, { ...defaultsOf(fields), file: 'e.duckdb' });
    expect(blank).toEqual({ file: 'e.duckdb' });
    expect(parseTarget({ engine: 'duckdb', ...blank })).toMatchObject({ engine: 'duckdb', file: 'e.duckdb' });
    expect(collect(fields, { file: 'e.duckdb', memoryLimit: '2GB' })).toEqual({ file: 'e.duckdb', memoryLimit: '2GB' });
    // A value typed that the pattern refuses is still sent, for the server to name the field.
    expect(collect(fields, { file: 'e.duckdb', memoryLimit: 'lots' })).toEqual({ file: 'e.duckdb', memoryLimit: 'lots' });
  });
});

describe('TPROC-C fields', () => {
  it('come from protocol TproccOptions with mix weights flattened', () => {
    expect(tprocc('warehouses')).toMatchObject({ kind: 'integer', minimum: 1, default: 1, group: 'schema' });
    expect(tprocc('driver')).toMatchObject({ kind: 'enum', options: ['test', 'timed'] });
    expect(tprocc('mix.neworder')).toMatchObject({ title: 'NEWORD', default: 10 });
    expect(TPROCC_FIELDS.some((f) => f.name === 'mix')).toBe(false);
  });

  it('collects a nested tprocc body and reads it back', () => {
    const v = { ...tproccDefaults(), vus: '2', rampup: '0', duration: '0.5', 'mix.payment': '12' };
    const body = collectTprocc(v, ['vus', 'rampup', 'duration', 'mix.payment']);
    expect(body).toEqual({ vus: 2, rampup: 0, duration: 0.5, mix: { payment: 12 } });
    expect(tproccToForm(body)).toMatchObject({ vus: '2', duration: '0.5', 'mix.payment': '12', 'mix.neworder': '10' });
  });

  it('the keying and thinking table: fields per transaction type with TPC-C defaults, nested in the body and read back', () => {
    const d = tproccDefaults();
    expect(d['keyThink.neworder.keyingSec']).toBe('18');
    expect(d['keyThink.neworder.thinkMeanSec']).toBe('12');
    expect(d['keyThink.stocklevel.thinkMeanSec']).toBe('5');
    expect(tprocc('keyThink.payment.keyingSec')).toMatchObject({ kind: 'number', minimum: 0, title: 'PAYMENT keying time (s)' });
    const body = collectTprocc({ ...d, 'keyThink.neworder.keyingSec': '1.5' }, ['keyThink.neworder.keyingSec', 'keyThink.neworder.thinkMeanSec', 'asyncVerbose']);
    expect(body).toEqual({ keyThink: { neworder: { keyingSec: 1.5, thinkMeanSec: 12 } }, asyncVerbose: false });
    expect(tproccToForm({ keyThink: { delivery: { keyingSec: 0.5, thinkMeanSec: 1 } } })).toMatchObject({ 'keyThink.delivery.keyingSec': '0.5', 'keyThink.neworder.keyingSec': '18' });
  });
});

describe('fieldKeyFor', () => {
  const keys = ['tprocc.warehouses', 'target.port', 'tprocc.mix'];
  it('routes API error fields to form keys', () => {
    expect(fieldKeyFor('tprocc.warehouses', keys)).toBe('tprocc.warehouses');
    expect(fieldKeyFor('tprocc.mix.payment', keys)).toBe('tprocc.mix');
    expect(fieldKeyFor('target.host', keys)).toBeNull();
    expect(fieldKeyFor(undefined, keys)).toBeNull();
  });
});
