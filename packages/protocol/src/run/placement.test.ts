import { describe, expect, it } from 'vitest';
import { parseJobCreate } from '../job-create.js';
import { err } from '../test/err.js';

const target = { engine: 'postgresql', host: 'db' };
const run = (placement: unknown, extra: Record<string, unknown> = {}) => parseJobCreate({ type: 'run', target, tprocc: { vus: 4 }, placement, ...extra }, 1);
const problems = (f: () => unknown) => {
  const e = err(f);
  return (e.errors ?? [{ field: e.field, message: e.message }]).map((x) => `${x.field}: ${x.message}`);
};

describe('a run job\'s placement', () => {
  it('is kept as given for a TPROC-C run: local, every replica, named ones, VUs per replica', () => {
    expect(run({ on: 'local' }).placement).toEqual({ on: 'local' });
    expect(run({ on: 'replicas' }).placement).toEqual({ on: 'replicas' });
    expect(run({ on: 'replicas', replicas: ['a', 'b-2'] }).placement).toEqual({ on: 'replicas', replicas: ['a', 'b-2'] });
    expect(run({ on: 'replicas', vus: { a: 3, b: 1 } }).placement).toEqual({ on: 'replicas', vus: { a: 3, b: 1 } });
    expect(parseJobCreate({ type: 'run', target, tprocc: {} }, 1).placement).toBeUndefined();
  });

  it('is refused, naming the field and what to change, where it cannot apply', () => {
    expect(problems(() => parseJobCreate({ type: 'build', target, placement: { on: 'replicas' } }, 1))).toEqual(['placement: placement applies only to run jobs (this is a build job): remove it']);
    expect(problems(() => run({ on: 'local', replicas: ['a'] }))).toEqual(['placement: placement.replicas and placement.vus apply to placement.on "replicas": remove them or set on to "replicas"']);
    expect(problems(() => parseJobCreate({ type: 'run', workload: 'tproch', target, tproch: {}, placement: { on: 'replicas' } }, 1))[0]).toMatch(/^placement\.on: TPROC-H runs cannot be placed on replicas/);
    expect(problems(() => run({ on: 'replicas', replicas: ['a'], vus: { a: 2, b: 2 } }))).toEqual(['placement.vus: placement.vus names b, not in placement.replicas: name the same replicas in both, or leave placement.replicas out']);
    expect(problems(() => run({ on: 'replicas', vus: {} }))[0]).toMatch(/names no replica/);
  });

  it('checks its shape: the mode, replica names as NATS subject tokens, whole VU counts', () => {
    expect(problems(() => run({ on: 'elsewhere' }))[0]).toMatch(/^placement\.on/);
    expect(problems(() => run({ on: 'replicas', replicas: ['a.b'] }))[0]).toMatch(/^placement\.replicas/);
    expect(problems(() => run({ on: 'replicas', vus: { a: -1 } }))[0]).toMatch(/^placement\.vus/);
    expect(problems(() => run({ on: 'replicas', extra: 1 }))[0]).toMatch(/^placement/);
  });
});
