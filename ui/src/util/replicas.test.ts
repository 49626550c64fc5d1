import { describe, expect, it } from 'vitest';
import type { Job, ReplicaInfo } from '@sledge/protocol';
import { planRerun } from './rerun.js';
import { ageText, draftOfPlacement, evenSpread, placementBody, placementDraftOf, placementOf, placementProblem, placementText, replicaRunsOf, typedVusSum, unusableReason, usableReplicas, vuRanges, vusInput } from './replicas.js';

const replica = (name: string, over: Partial<ReplicaInfo> = {}): ReplicaInfo => ({
  name,
  version: '0.1.0',
  versionMatch: true,
  host: `${name}.lab`,
  cores: 4,
  drivers: ['postgresql', 'sqlite'],
  state: 'ready',
  jobId: null,
  cpuPct: 12,
  processCpuPct: 1,
  joinedAt: 1,
  lastSeenAt: 2,
  ...over,
});

describe('placement draft -> job body', () => {
  it('sends no placement for this server, { on: replicas } for all ready replicas', () => {
    expect(placementBody({ mode: 'local', chosen: ['r1'], vus: { r1: '2' } })).toBeUndefined();
    expect(placementBody({ mode: 'all', chosen: ['r1'], vus: { r1: '2' } })).toEqual({ on: 'replicas' });
  });
  it('names the chosen replicas, with VUs only when some are typed (blanks are left out, the server counts them 0)', () => {
    expect(placementBody({ mode: 'chosen', chosen: ['r1', 'r2'], vus: {} })).toEqual({ on: 'replicas', replicas: ['r1', 'r2'] });
    expect(placementBody({ mode: 'chosen', chosen: ['r1', 'r2'], vus: { r1: ' 3 ', r2: '', r3: '9' } })).toEqual({ on: 'replicas', replicas: ['r1', 'r2'], vus: { r1: 3 } });
  });
  it('refuses an empty choice before sending, at placement.replicas', () => {
    expect(placementProblem({ mode: 'chosen', chosen: [], vus: {} })).toEqual({ field: 'placement.replicas', message: expect.stringMatching(/at least one replica/) });
    expect(placementProblem({ mode: 'chosen', chosen: ['r1'], vus: {} })).toBeUndefined();
    expect(placementProblem({ mode: 'all', chosen: [], vus: {} })).toBeUndefined();
  });
  it('round-trips a stored placement into a draft (Edit and run)', () => {
    expect(draftOfPlacement(undefined).mode).toBe('local');
    expect(draftOfPlacement({ on: 'local' }).mode).toBe('local');
    expect(draftOfPlacement({ on: 'replicas' })).toEqual({ mode: 'all', chosen: [], vus: {} });
    expect(draftOfPlacement({ on: 'replicas', vus: { a: 1, b: 3 } })).toEqual({ mode: 'chosen', chosen: ['a', 'b'], vus: { a: '1', b: '3' } });
    const d = draftOfPlacement({ on: 'replicas', replicas: ['a', 'b'], vus: { a: 2, b: 2 } });
    expect(placementBody(d)).toEqual({ on: 'replicas', replicas: ['a', 'b'], vus: { a: 2, b: 2 } });
  });
  it('reads the placement of a stored configuration', () => {
    expect(placementOf({ type: 'run', placement: { on: 'replicas', replicas: ['a'] } })).toEqual({ on: 'replicas', replicas: ['a'] });
    expect(placementOf({ type: 'run' })).toBeUndefined();
    expect(placementOf({ placement: { on: 'elsewhere' } })).toBeUndefined();
    expect(placementOf(null)).toBeUndefined();
  });
  it('takes back a remembered draft only when it is one', () => {
    expect(placementDraftOf({ mode: 'chosen', chosen: ['a', 3], vus: { a: '2x', b: 4 } })).toEqual({ mode: 'chosen', chosen: ['a'], vus: { a: '2' } });
    expect(placementDraftOf({ mode: 'nowhere' })).toBeUndefined();
    expect(placementDraftOf('all')).toBeUndefined();
  });
  it('sums typed VUs (none typed: an even spread)', () => {
    expect(typedVusSum({ mode: 'chosen', chosen: ['a', 'b'], vus: {} })).toBeUndefined();
    expect(typedVusSum({ mode: 'chosen', chosen: ['a', 'b'], vus: { a: '3', b: '' } })).toBe(3);
    expect(typedVusSum({ mode: 'chosen', chosen: ['a'], vus: { a: '3', b: '5' } })).toBe(3);
    expect(vusInput('1a2 -')).toBe('12');
  });
});

describe('replicas', () => {
  it('spreads VUs as the server does: the first replicas take one more', () => {
    expect(evenSpread(5, ['a', 'b'])).toEqual([
      { name: 'a', vus: 3 },
      { name: 'b', vus: 2 },
    ]);
    expect(evenSpread(2, ['a', 'b', 'c']).map((x) => x.vus)).toEqual([1, 1, 0]);
    expect(evenSpread(4, [])).toEqual([]);
  });
  it('says why a replica cannot take a run', () => {
    expect(unusableReason(replica('a'), 'postgresql')).toBeUndefined();
    expect(unusableReason(replica('a', { state: 'busy', jobId: 'J1' }), 'postgresql')).toBe('busy with job J1');
    expect(unusableReason(replica('a', { state: 'lost' }), 'postgresql')).toBe('lost');
    expect(unusableReason(replica('a'), 'mysql')).toBe('no mysql driver');
    expect(usableReplicas([replica('a'), replica('b', { state: 'busy' }), replica('c', { drivers: ['sqlite'] })], 'postgresql').map((r) => r.name)).toEqual(['a']);
  });
  it('writes VU positions as ranges and heartbeat ages briefly', () => {
    expect(vuRanges([2, 3, 4, 7, 9, 10])).toBe('2–4, 7, 9, 10');
    expect(vuRanges([5])).toBe('5');
    expect(vuRanges([])).toBe('');
    expect(ageText(-300)).toBe('0.0 s');
    expect(ageText(420)).toBe('0.4 s');
    expect(ageText(42_000)).toBe('42 s');
    expect(ageText(185_000)).toBe('3 min 5 s');
  });
  it('reads result.replicas of a run placed on replicas, nothing for other results', () => {
    const replicas = [
      { name: 'r1', vus: [2], transactions: 100, clientTpm: 500, finishedVus: 1 },
      { name: 'r2', vus: [3], transactions: 90, clientTpm: 450, finishedVus: 0, lostAt: 1_700_000_000_000 },
    ];
    const job = { result: { nopm: 1, tpm: 2, replicas, vusFinished: 1 } } as unknown as Parameters<typeof replicaRunsOf>[0];
    expect(replicaRunsOf(job)).toEqual({ replicas, vusFinished: 1 });
    expect(replicaRunsOf({ result: { nopm: 1 } } as unknown as Parameters<typeof replicaRunsOf>[0])).toBeUndefined();
    expect(replicaRunsOf({ result: { replicas: [{ name: 'x' }] } } as unknown as Parameters<typeof replicaRunsOf>[0])).toBeUndefined();
    expect(replicaRunsOf({ result: undefined } as unknown as Parameters<typeof replicaRunsOf>[0])).toBeUndefined();
  });
  it('names the placement in run summaries', () => {
    expect(placementText(undefined)).toBeUndefined();
    expect(placementText({ on: 'local' })).toBeUndefined();
    expect(placementText({ on: 'replicas' })).toBe('on all ready replicas');
    expect(placementText({ on: 'replicas', replicas: ['a', 'b'], vus: { a: 3, b: 1 } })).toBe('on replicas a (3), b (1)');
  });
});

describe('Run again of a run placed on replicas', () => {
  it('repeats its placement with the rest of its configuration', () => {
    const job = {
      id: 'J',
      type: 'run',
      workload: 'tprocc',
      engine: 'postgresql',
      status: 'completed',
      config: { type: 'run', workload: 'tprocc', target: { engine: 'postgresql', host: 'h', user: 'u', password: 'pw', database: 'd' }, tprocc: { vus: 4 }, placement: { on: 'replicas', replicas: ['a', 'b'], vus: { a: 3, b: 1 } } },
    } as unknown as Job;
    expect((planRerun(job).body as { placement?: unknown }).placement).toEqual({ on: 'replicas', replicas: ['a', 'b'], vus: { a: 3, b: 1 } });
    const local = { ...job, config: { ...(job.config as object), placement: undefined } } as unknown as Job;
    expect((planRerun(local).body as { placement?: unknown }).placement).toBeUndefined();
  });
});
