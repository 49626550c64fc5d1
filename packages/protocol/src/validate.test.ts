import { describe, expect, it } from 'vitest';
import { configOf, parseJobCreate, parseTarget, redact, scrub, secretValues, REDACTED } from './index.js';
import { err } from './test/err.js';

const pg = { engine: 'postgresql', host: '127.0.0.1', password: 'pw123' };

describe('parseJobCreate', () => {
  it('fills HammerDB defaults', () => {
    const c = configOf(parseJobCreate({ type: 'build', target: { engine: 'sqlite' } }, 7), 'tprocc');
    expect(c.tprocc.warehouses).toBe(1);
    expect(c.tprocc.rampup).toBe(2);
    expect(c.tprocc.duration).toBe(5);
    expect(c.tprocc.mix).toEqual({ neworder: 10, payment: 10, delivery: 1, stocklevel: 1, orderstatus: 1 });
    expect(c.seed).toBe(7);
    expect(c.target).toMatchObject({ engine: 'sqlite', file: 'tprocc.sqlite' });
  });

  it.each([
    [0, 'must be >= 1'],
    [-1, 'must be >= 1'],
    ['x', 'must be an integer'],
    [1e9, 'must be <= 100000'],
    [1.5, 'must be an integer'],
  ])('rejects warehouses=%s naming the field', (w, msg) => {
    const e = err(() => parseJobCreate({ type: 'build', target: pg, tprocc: { warehouses: w } }, 1));
    expect(e.code).toBe('SLEDGE_E_VALIDATION');
    expect(e.field).toBe('tprocc.warehouses');
    expect(e.message).toContain(msg);
  });

  it.each([
    [-1, 'must be >= 0'],
    [1.5, 'must be an integer'],
    ['2', 'must be an integer'],
    [20000, 'must be <= 10000'],
  ])('rejects script.threads=%s naming the field', (t, msg) => {
    const e = err(() => parseJobCreate({ type: 'run', workload: 'script', target: pg, script: { threads: t } }, 1));
    expect(e.code).toBe('SLEDGE_E_VALIDATION');
    expect(e.field).toBe('script.threads');
    expect(e.message).toContain(msg);
  });

  it("takes script.threads (the native loop's threads, pgbench's -j), and leaves it out when not given", () => {
    expect(configOf(parseJobCreate({ type: 'run', workload: 'script', target: pg, script: { threads: 2 } }, 1), 'script').script.threads).toBe(2);
    expect(configOf(parseJobCreate({ type: 'run', workload: 'script', target: pg, script: { threads: 0 } }, 1), 'script').script.threads).toBe(0);
    expect(configOf(parseJobCreate({ type: 'run', workload: 'script', target: pg, script: {} }, 1), 'script').script.threads).toBeUndefined();
  });

  it('rejects build VUs above warehouses', () => {
    const e = err(() => parseJobCreate({ type: 'build', target: pg, tprocc: { warehouses: 2, buildVus: 3 } }, 1));
    expect(e.field).toBe('tprocc.buildVus');
  });

  it('rejects an unknown engine with the list of engines', () => {
    const e = err(() => parseJobCreate({ type: 'run', target: { engine: 'mongodb' } }, 1));
    expect(e.code).toBe('SLEDGE_E_UNKNOWN_ENGINE');
    expect(e.field).toBe('target.engine');
    expect(e.message).toContain('postgresql');
  });

  it('rejects unknown fields and bad types', () => {
    expect(err(() => parseJobCreate({ type: 'run', target: { engine: 'sqlite', fil: 'x' } }, 1)).field).toBe('target.fil');
    expect(err(() => parseJobCreate({ type: 'nope', target: pg }, 1)).field).toBe('type');
    expect(err(() => parseTarget({ ...pg, port: 70000 })).field).toBe('target.port');
    expect(err(() => parseJobCreate({ type: 'run', target: pg, tprocc: { duration: 0 } }, 1)).field).toBe('tprocc.duration');
    expect(err(() => parseJobCreate({ type: 'run', target: pg, tprocc: { mix: { neworder: 0, payment: 0, delivery: 0, stocklevel: 0, orderstatus: 0 } } }, 1)).field).toBe('tprocc.mix');
  });
});

describe('redact', () => {
  it('replaces secrets at any depth and in URLs', () => {
    const r = redact({ target: { ...pg, superuserPassword: 'root!', url: 'postgres://u:sekrit@h/db' }, token: 'abc' });
    expect(r.target.password).toBe(REDACTED);
    expect(r.target.superuserPassword).toBe(REDACTED);
    expect(r.target.url).toBe(`postgres://u:${REDACTED}@h/db`);
    expect(r.token).toBe(REDACTED);
    expect(r.target.host).toBe('127.0.0.1');
    expect(JSON.stringify(r)).not.toContain('pw123');
  });
  it('scrubs secrets out of text', () => {
    expect(scrub('password authentication failed for pw123', ['pw123'])).not.toContain('pw123');
    expect(scrub('password=postgres in /sql/postgresql/', ['postgres'])).toBe('password=******** in /sql/postgresql/');
    expect(scrub('a.b*c? failed', ['a.b*c?'])).toBe('******** failed');
    // A keyed value is a secret whatever it is, listed or not.
    expect(scrub('host=h user=tpcc password=tpcc dbname=tpcc', [])).toBe('host=h user=tpcc password=******** dbname=tpcc');
    expect(scrub("pwd: 'x y'; token=abc&x=1", [])).toBe('pwd: ********; token=********&x=1');
  });

  it('user names are not secrets: a password equal to the user name is not scrubbed from lines that name the user', () => {
    const t = parseTarget({ engine: 'postgresql', user: 'tpcc', password: 'tpcc', superuser: 'postgres', superuserPassword: 'Sup3r-x' });
    expect(secretValues(t)).toEqual(['Sup3r-x']);
    expect(scrub('Creating user tpcc', secretValues(t))).toBe('Creating user tpcc');
    expect(scrub('login as postgres with Sup3r-x', secretValues(t))).toBe('login as postgres with ********');
    expect(scrub('postgres://tpcc:tpcc@h/tpcc', secretValues(t))).toBe('postgres://tpcc:********@h/tpcc');
  });

  it('lists every field at fault in one error, the first also in message and field', () => {
    const e = err(() =>
      parseJobCreate({ type: 'run', target: { engine: 'sqlite', busyTimeoutMs: -5, synchronous: 'sometimes' }, tprocc: { vus: 0, duration: 'long' }, seed: -1 }, 1),
    );
    expect(e.code).toBe('SLEDGE_E_VALIDATION');
    const fields = e.errors!.map((x) => x.field).sort();
    expect(fields).toEqual(['seed', 'target.busyTimeoutMs', 'target.synchronous', 'tprocc.duration', 'tprocc.vus']);
    expect(e.field).toBe(e.errors![0]!.field);
    expect(e.toInfo().errors).toHaveLength(5);
    // A union of literals lists what is allowed.
    expect(e.errors!.find((x) => x.field === 'target.synchronous')!.message).toBe('target.synchronous must be one of off, normal, full (got "sometimes")');
  });

  it('a missing type reads as English and lists the types', () => {
    const e = err(() => parseJobCreate({ target: { engine: 'sqlite' } }, 1));
    expect(e.message).toBe('type is required: one of build, check, delete, run, datagen');
    expect(e.field).toBe('type');
  });

  it('a run needs its workload options (send {} for the defaults): no 7-minute run nobody asked for', () => {
    const e = err(() => parseJobCreate({ type: 'run', target: { engine: 'sqlite' } }, 1));
    expect(e.field).toBe('tprocc');
    expect(e.message).toMatch(/send \{\} to accept the defaults/);
    expect(configOf(parseJobCreate({ type: 'run', target: { engine: 'sqlite' }, tprocc: {} }, 1), 'tprocc').tprocc.duration).toBe(5);
    expect(parseJobCreate({ type: 'check', target: { engine: 'sqlite' } }, 1).type).toBe('check');
  });
});
