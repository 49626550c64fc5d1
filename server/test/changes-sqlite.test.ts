import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineSettingsRecord, Job, JobChanges } from '@sledge/protocol';
import { get, makeApp, runJob, type SledgeApp } from './helpers.js';
import { sqliteFromTemplate } from './sqlite-template.js';

/**
 * What changed between SQLite runs (docs/compare.md): the target's PRAGMA
 * synchronous differs between two pairs of runs, each pair in its own
 * profile, so compare names the pragma and reads the NOPM change against the
 * pairs' measured spread.
 */
describe('SQLite: what changed between two runs', () => {
  let s: SledgeApp & { dataDir: string };
  const file = 'changes.sqlite';
  const run = (synchronous: string, profileId: number) => ({ type: 'run', profileId, target: { engine: 'sqlite', file, synchronous }, tprocc: { vus: 1, rampup: 0, duration: 0.05 } });
  let a: Job[];
  let b: Job[];

  beforeAll(async () => {
    s = await makeApp();
    sqliteFromTemplate(s, file);
    a = [await runJob(s, run('normal', 11)), await runJob(s, run('normal', 11))];
    b = [await runJob(s, run('full', 12)), await runJob(s, run('full', 12))];
  }, 600_000);

  afterAll(async () => {
    await s?.app.close();
  });

  it('each run records the pragmas its virtual users run with', async () => {
    for (const j of [...a, ...b]) expect(j.status, JSON.stringify(j.error)).toBe('completed');
    const sa = await get<EngineSettingsRecord>(s, `/api/v1/jobs/${a[0]!.id}/settings`);
    const byName = new Map(sa.settings.map((x) => [x.name, x.value]));
    expect(byName.get('synchronous')).toBe('NORMAL');
    expect(byName.get('journal_mode')).toBe('wal');
    expect(byName.get('busy_timeout')).toBe('5000');
    expect(byName.get('temp_store')).toBe('MEMORY');
    expect(byName.get('cache_size')).toBe(String(-64 * 1024));
    expect(byName.get('mmap_size')).toBe(String(1024 * 1024 * 1024));
    expect(Number(byName.get('page_size'))).toBeGreaterThan(0);
    expect(sa.withheld).toEqual([]);
  });

  it('compare names synchronous with both values; SQLite has no statement counters', async () => {
    const c = await get<JobChanges>(s, `/api/v1/compare/changes?jobs=${a[0]!.id},${b[0]!.id}`);
    expect(c.settings.differ).toEqual([{ name: 'synchronous', a: 'NORMAL', b: 'FULL', sourceA: 'pragma', sourceB: 'pragma' }]);
    expect(c.statements.unavailable).toBe(`job ${a[0]!.id}: not available: sqlite keeps no per-statement counters`);
    expect(c.plans).toEqual({ changed: [], compared: 0 });
  });

  it('reads the NOPM change against each profile\'s measured spread (two runs each)', async () => {
    const c = await get<JobChanges>(s, `/api/v1/compare/changes?jobs=${a[0]!.id},${b[0]!.id}`);
    const v = c.verdict;
    const cvOf = (xs: number[]) => {
      const m = xs.reduce((p, x) => p + x, 0) / xs.length;
      return Math.sqrt(xs.reduce((p, x) => p + (x - m) ** 2, 0) / (xs.length - 1)) / m;
    };
    const na = a.map((j) => j.result!.nopm as number);
    const nb = b.map((j) => j.result!.nopm as number);
    expect(v.spread.map((x) => [x.jobId, x.repeats])).toEqual([
      [a[0]!.id, 2],
      [b[0]!.id, 2],
    ]);
    expect(v.spread[0]!.cv).toBeCloseTo(cvOf(na), 10);
    expect(v.spread[1]!.cv).toBeCloseTo(cvOf(nb), 10);
    const change = (nb[0]! - na[0]!) / na[0]!;
    const noise = 2 * Math.sqrt(cvOf(na) ** 2 + cvOf(nb) ** 2);
    expect(v.change).toBeCloseTo(change, 10);
    expect(v.noise).toBeCloseTo(noise, 10);
    expect(v.verdict).toBe(Math.abs(change) <= noise ? 'within-noise' : change < 0 ? 'regression' : 'improvement');
    expect(v.message).toContain('2 completed runs of profile 11 at 1 active VUs');
  });
});
