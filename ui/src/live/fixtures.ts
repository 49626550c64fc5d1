/** Test fixtures: a run job and its snapshot. */
import type { Job, Snapshot } from '@sledge/protocol';

export const job = (over: Partial<Job> = {}): Job => ({
  id: 'ABCDEF0123456789ABCDEF01',
  type: 'run',
  workload: 'tprocc',
  engine: 'postgresql',
  status: 'measuring',
  profileId: 0,
  createdAt: '2026-01-01T10:00:00.000Z',
  startedAt: '2026-01-01T10:00:01.000Z',
  config: { tprocc: { driver: 'timed', rampup: 0, duration: 1 } },
  seed: 1,
  clientVersion: 'sledge test',
  ...over,
});

export const snapshot = (over: Partial<Snapshot> = {}): Snapshot => ({
  job: job(),
  seq: 10,
  output: [{ seq: 1, vu: 1, ts: 1000, text: 'hello' }],
  outputTotal: 1,
  engine: [{ ts: 1000, tpm: 0, nopm: 0 }],
  client: [],
  latency: [],
  vus: [],
  timings: [],
  metrics: {},
  ...over,
});

