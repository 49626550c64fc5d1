import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import type { CpuSample, Job } from '@sledge/protocol';
import { JobArtifact, TproccArtifact, TprochArtifact } from '../dist/artifact/schema.js';
import { jobsDiff, signedRatio, tclFixed } from '../dist/engine/jobs-diff.js';
import { tclList, tclValue } from '../dist/routes/hammerdb/tcl-text.js';
import { get, hdb, jobs, waitComplete } from './hammerdb-v6-api.js';
import { makeApp, post, waitJob, type SledgeApp } from './helpers.js';
import { leaderboardErrors } from './leaderboard-schema.js';

/**
 * HammerDB v6.0's job endpoints (hammerdb.md §3.1, §3.3, §3.4, §11.1): the
 * jobs diff arithmetic to the printed digit, the v6 viewer forms, the JSON
 * result artifact against its schema, and the CLI `jobs` verb (POST
 * /jobscmd), over a real short SQLite run and a TPROC-H power run. The
 * PostgreSQL run's artifact: hammerdb-v6-postgresql.test.ts (live tier).
 */

const TS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** Every JSON leaf is a string, as huddle writes them. */
function allStrings(v: unknown): boolean {
  if (Array.isArray(v)) return v.every(allStrings);
  if (v !== null && typeof v === 'object') return Object.values(v).every(allStrings);
  return typeof v === 'string';
}

const point = (activeVus: number, nopm: number, createdAt = '2026-01-01T00:00:00Z') => ({ jobId: 'x', engine: 'postgresql', createdAt, activeVus, nopm, tpm: 0 });

describe('jobs diff arithmetic (HammerDB jobs_profile_diff)', () => {
  it('prints %.0f with C rounding: exact ties to even', () => {
    expect([tclFixed(1001.5, 0), tclFixed(1002.5, 0), tclFixed(3857.142857, 0), tclFixed(0.125, 2), tclFixed(0.375, 2), tclFixed(0.015, 2), tclFixed(-2.5, 0)]).toEqual(['1002', '1002', '3857', '0.12', '0.38', '0.01', '-2']);
  });

  it('signs the ratio with 2 decimals, 4 when 2 show 0.00, and "0.00"/"0.0000" for zero', () => {
    expect([0.05, -0.05, 0.0031, -0.0031, 0, 0.000001, -0.000001, 0.005, 0.0049].map(signedRatio)).toEqual(['+0.05', '-0.05', '+0.0031', '-0.0031', '0.00', '0.0000', '0.0000', '+0.01', '+0.0049']);
  });

  it('unweighted: matched VU counts only, a later run at a count replaces an earlier one', () => {
    const base = [point(1, 1000), point(4, 3000), point(8, 5000), point(8, 4000, '2025-12-31T00:00:00Z')];
    const comp = [point(1, 1100), point(4, 2900), point(8, 5200), point(16, 99)];
    // base (1000 + 3000 + 5000) / 3 = 3000; comp (1100 + 2900 + 5200) / 3 = 3066.67; ratio 66.67 / 3000 = 0.0222
    const d = jobsDiff(base, comp);
    expect(d).toMatchObject({ matched: 3, activeVus: [1, 4, 8], avgBase: 3000, diff: '+0.02', lines: ['Profiles compared (unweighted): matched=3, avg_base=3000, avg_comp=3067'] });
  });

  it('weighted: w = max(1, avu / ceil(cpus / 2)), the weighted line after the unweighted one', () => {
    const base = [point(1, 1000), point(4, 3000), point(8, 5000)];
    const comp = [point(1, 1100), point(4, 2900), point(8, 5200)];
    // 4 CPUs: phys_cores 2, w = 1, 2, 4 (sum 7); base 27000 / 7 = 3857.14, comp 27700 / 7 = 3957.14; ratio 700 / 27000 = 0.0259
    const d = jobsDiff(base, comp, { weighted: true, cpuCount: 4 });
    expect(d).toMatchObject({ diff: '+0.03', lines: ['Profiles compared (unweighted): matched=3, avg_base=3000, avg_comp=3067', 'Profiles compared (weighted linear, no cap): matched=3, phys_cores=2, avg_base=3857, avg_comp=3957'] });
    // 3 CPUs: phys_cores = ceil(1.5) = 2, the same weights.
    expect(jobsDiff(base, comp, { weighted: true, cpuCount: 3 })).toMatchObject({ diff: '+0.03', weighted: { physCores: 2 } });
    // 64 CPUs: every w is 1, the weighted means are the unweighted ones.
    expect(jobsDiff(base, comp, { weighted: true, cpuCount: 64 })).toMatchObject({ diff: '+0.02', weighted: { physCores: 32, avgBase: 3000 } });
    const noCpu = jobsDiff(base, comp, { weighted: true });
    expect(noCpu).toMatchObject({ diff: '+0.02', lines: ['Profiles compared (unweighted): matched=3, avg_base=3000, avg_comp=3067', 'Error: CPU-weighted requested but logical CPU count not found; using unweighted only'] });
  });

  it('4 decimals when 2 would show 0.00; no common VU count is no diff', () => {
    expect(jobsDiff([point(2, 10000)], [point(2, 10031)])).toMatchObject({ diff: '+0.0031' });
    expect(jobsDiff([point(2, 10000)], [point(2, 9969)])).toMatchObject({ diff: '-0.0031' });
    expect(jobsDiff([point(2, 10000)], [point(2, 10000)])).toMatchObject({ diff: '0.00' });
    expect(jobsDiff([point(1, 1000), point(2, 1003)], [point(1, 1000), point(2, 1003)])).toMatchObject({ lines: ['Profiles compared (unweighted): matched=2, avg_base=1002, avg_comp=1002'] });
    expect(jobsDiff([point(1, 100)], [point(2, 100)], 'profile 3')).toEqual({ missing: 'no active-VU count in common with profile 3 (it ran 1; this run 2)' });
  });

  it('Tcl text: lists brace what has spaces', () => {
    expect(tclList(['a', 'a b', '', 'x}y'])).toBe('a {a b} {} x\\}y');
    expect(tclValue({ A: { db: 'PostgreSQL', tstamp: '2026-01-01 10:00:00' } })).toBe('A {db PostgreSQL tstamp {2026-01-01 10:00:00}}');
  });
});

/** A stored TPROC-C run in a profile, with the output lines HammerDB reads its result from. */
function storedRun(s: SledgeApp, profileId: number, activeVus: number, nopm: number, cpuCount?: number): Job {
  const tpm = nopm * 2;
  const j = s.store.createJob({ type: 'run', workload: 'tprocc', engine: 'postgresql', config: { target: { engine: 'postgresql', password: '********' }, tprocc: { vus: activeVus, rampup: 0, duration: 1 } }, seed: 1, profileId, clientVersion: 't' });
  s.store.updateJob(j.id, { status: 'connecting' });
  const lines: [number, string][] = [
    [1, 'DBVersion:15.4 '],
    [1, `${activeVus} Active Virtual Users configured`],
    [1, `TEST RESULT : System achieved ${nopm} NOPM from ${tpm} PostgreSQL TPM`],
    [0, 'Vuser 1:RUNNING'],
    [0, 'Vuser 1:FINISHED SUCCESS'],
    [0, 'ALL VIRTUAL USERS COMPLETE'],
  ];
  s.store.appendOutput(
    j.id,
    lines.map(([vu, text]) => ({ vu, text, ts: Date.now() })),
  );
  if (cpuCount) s.store.setSystem(j.id, 'bench (local)', { hostname: 'bench', cpuModel: 'Test CPU', cpuCount, memoryBytes: 16 * 2 ** 30, os: 'Linux', kernel: '6.1' });
  return s.store.updateJob(j.id, { status: 'completed', result: { nopm, tpm, activeVus, tpmSource: 'engine', line: `TEST RESULT : System achieved ${nopm} NOPM from ${tpm} PostgreSQL TPM`, measuredSeconds: 60 } });
}

describe('jobs diff over stored profiles: CLI, viewer and REST agree', () => {
  let s: SledgeApp;
  beforeAll(async () => {
    s = await makeApp();
    storedRun(s, 7, 1, 1000, 4);
    storedRun(s, 7, 4, 3000);
    storedRun(s, 7, 8, 5000);
    storedRun(s, 8, 1, 1100);
    storedRun(s, 8, 4, 2900);
    storedRun(s, 8, 8, 5200);
    storedRun(s, 9, 32, 10);
  });
  afterAll(async () => {
    await s.app.close();
  });

  it('jobs diff base comp [true|false]', async () => {
    const lineU = 'Profiles compared (unweighted): matched=3, avg_base=3000, avg_comp=3067';
    const lineW = 'Profiles compared (weighted linear, no cap): matched=3, phys_cores=2, avg_base=3857, avg_comp=3957';
    expect(await jobs(s, 'diff', '7', '8')).toEqual({ output: [lineU], value: '+0.02' });
    expect(await jobs(s, 'diff', '7', '8', 'true')).toEqual({ output: [lineU, lineW], value: '+0.03' });
    expect(await jobs(s, 'diff', '7', '8', 'no')).toEqual({ output: [lineU], value: '+0.02' });
    expect(await jobs(s, 'diff', '7', '9')).toEqual({ output: ['Error: the two profiles have no overlapping activevu points'], value: 'null' });
    expect(await jobs(s, 'diff', '7', '99')).toEqual({ output: ['Error: no jobs found for bad profile id 99'], value: 'null' });
    expect(await jobs(s, 'diff', '0', '8')).toEqual({ output: ['Error: good profile id must be an integer > 0'], value: 'null' });
    expect((await jobs(s, 'diff', '7', '8', 'maybe')).output[0]).toBe('Error: Usage: jobs diff basepid comppid [true|false]');
    // The viewer and REST give the same figures.
    const web = (await get(s, '/jobs?cmd=profilediff&base_pid=7&new_pid=8&weighted=1')) as Record<string, unknown>;
    expect(web).toMatchObject({ base_pid: '7', new_pid: '8', weighted: 'true', matched: '3', activevu: '1 4 8', ratio: '+0.03', lines: [lineU, lineW] });
    expect(await get(s, '/jobs?cmd=profilediff&base_pid=7&new_pid=7')).toEqual({ error: { message: 'Base and New profiles must be different.' } });
    expect(await get(s, '/jobs?cmd=profilediff&base_pid=7')).toEqual({ error: { message: 'Please select one Base profile and one New profile to compare.' } });
    const rest = (await get(s, '/api/v1/profiles/7/diff/8?weighted=1')) as Record<string, unknown>;
    expect(rest).toMatchObject({ diff: '+0.03', lines: [lineU, lineW], weighted: { physCores: 2 } });
    expect(((await get(s, '/api/v1/profiles/7/diff/8')) as { diff: string }).diff).toBe('+0.02');
  });

  it('jobs PID getchart profile: the profile\'s NOPM and TPM by active VUs as a self-contained page', async () => {
    const r = await jobs(s, '7', 'getchart', 'profile');
    expect(r.output).toEqual([]);
    expect(r.value).toMatch(/^<!doctype html>/);
    expect(r.value).toContain('PostgreSQL Performance Profile 7');
    expect(r.value).toContain('<svg');
    expect(r.value).not.toMatch(/<script|https?:\/\//);
    expect(await jobs(s, '9', 'getchart', 'profile')).toEqual({ output: ['Error: Not enough data for performance profile chart type'], value: '' });
    expect(await jobs(s, 'x', 'getchart', 'profile')).toEqual({ output: ['Error: Performance profile id should be an integer greater than 0'], value: '' });
  });

  it('jobs profile, profileid all, and jobs?profileid=N&profiledata', async () => {
    const data = (await get(s, '/jobs?profileid=7&profiledata')) as Record<string, Record<string, string>>;
    expect(Object.values(data).map((e) => [e['activevu'], e['nopm'], e['tpm']])).toEqual([
      ['1', '1000', '2000'],
      ['4', '3000', '6000'],
      ['8', '5000', '10000'],
    ]);
    expect(Object.values(data).every((e) => e['db'] === 'PostgreSQL' && e['bm'] === 'TPC-C' && TS.test(e['tstamp']!))).toBe(true);
    expect(await get(s, '/jobs?profileid=7&raw=1')).toEqual(data);
    // JSON by default, as HammerDB's jobsoutput (generic.xml) since 4.7: huddle's pretty JSON, every leaf a string.
    expect((await jobs(s, 'profileid', 'all')).output).toEqual(['[', '  "7",', '  "8",', '  "9"', ']']);
    const json = await jobs(s, 'profile', '9');
    expect(Object.values(JSON.parse(json.output.join('\n')) as Record<string, unknown>)).toEqual([expect.objectContaining({ activevu: '32', nopm: '10' })]);
    expect(json.output[0]).toBe('{');
    expect(await jobs(s, 'profile', '55')).toEqual({ output: ['Error: No jobs found with performance profile id of 55'], value: '' });
    // jobs format text: Tcl lists and dicts, one profile id a line.
    expect(await jobs(s, 'format', 'text')).toEqual({ output: ['Setting jobs output format to text'], value: '' });
    expect((await jobs(s, 'profileid', 'all')).output).toEqual(['7', '8', '9']);
    const text = await jobs(s, 'profile', '9');
    expect(text.output).toHaveLength(1);
    expect(text.output[0]).toMatch(/^[0-9A-F]{24} \{db PostgreSQL bm TPC-C tstamp \{[^}]+\} activevu 32 nopm 10 tpm 20\}$/);
    expect(await jobs(s, 'format', 'json')).toEqual({ output: ['Setting jobs output format to JSON'], value: '' });
  });

  it('POST /jobscmd refuses a body that is not {"args":[words]}, changing nothing', async () => {
    for (const body of ['nonsense', '{"args":"result"}', '{"args":[{"a":1}]}']) {
      const r = await hdb(s, 'POST', '/jobscmd', body);
      expect(r.status).toBe(200);
      expect(r.json()).toEqual({ error: { message: expect.stringMatching(/args|JSON/) } });
    }
    expect(await jobs(s, 'profileid')).toEqual({ output: ['Performance profile id set to 0'], value: '' });
    expect(await jobs(s, 'profileid', 'x')).toEqual({ output: ['Error: Performance profile id should be an integer'], value: '' });
    expect((await jobs(s, 'A', 'B', 'C', 'D')).output[0]).toBe('Error: Too many arguments to jobs');
  });

  it('a browser asking for a profile page goes to the dashboard', async () => {
    const html = { accept: 'text/html' };
    const r = await hdb(s, 'GET', '/jobs?profileid=7', undefined, html);
    expect(r.status).toBe(302);
    expect(r.headers['location']).toBe('/compare?profile=7');
    expect((await hdb(s, 'GET', '/jobs?cmd=profilediff&base_pid=7&new_pid=8', undefined, html)).headers['location']).toBe('/compare?profile=8&base=7');
  });
});


describe('a timed SQLite run through the HammerDB API, then every v6 form', () => {
  let s: SledgeApp;
  let runId = '';
  const set = (verb: string, body: string) => hdb(s, 'POST', `/${verb}`, body);
  beforeAll(async () => {
    s = await makeApp();
    await set('dbset', ' "db": "sqlite" ');
    await set('diset', ' "dict": "connection", "key": "sqlite_file", "value": "v6.sqlite" ');
    const b = (await (await set('buildschema', '')).json()) as { success: { message: string } };
    await waitComplete(s, /JOBID=([0-9A-F]{24})/.exec(b.success.message)![1]!);
    await set('vuset', ' "vu": "2" ');
    for (const [k, v] of [['sqlite_rampup', '0'], ['sqlite_duration', '0.15'], ['sqlite_timeprofile', 'true']]) await set('diset', ` "dict": "tpcc", "key": "${k}", "value": "${v}" `);
    await set('tcset', ' "refreshrate": "2" ');
    expect(await jobs(s, 'profileid', '5')).toEqual({ output: ['Setting performance profile id to 5'], value: '' });
    await set('loadscript', '');
    const r = (await (await set('vurun', '')).json()) as { success: { message: string } };
    runId = /JOBID=([0-9A-F]{24})/.exec(r.success.message)![1]!;
    await waitComplete(s, runId);
    await waitJob(s, runId);
  }, 300_000);
  afterAll(async () => {
    await s.app.close();
  });

  it('jobs profileid gives the run its profile', async () => {
    expect(s.store.getJob(runId)!.profileId).toBe(5);
    expect(Object.keys((await get(s, '/jobs?profileid=5&profiledata')) as object)).toEqual([runId]);
  });

  it('summary: the job\'s self-contained HTML report, for a browser and a script alike', async () => {
    const nopm = (s.store.getJob(runId)!.result as { nopm: number }).nopm;
    for (const accept of ['text/html', '*/*']) {
      const r = await s.app.inject({ method: 'GET', url: `/jobs?jobid=${runId}&summary`, headers: { accept } });
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toMatch(/^text\/html/);
      expect(r.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:");
      expect(r.body).toContain(runId);
      expect(r.body).toContain(nopm.toLocaleString('en-US'));
      expect(r.body).toMatch(/<svg[^>]*>[\s\S]*<path/);
    }
  });

  it('summaryjson: the artifact, valid against the schema, with the job\'s own figures', async () => {
    const r = await hdb(s, 'GET', `/jobs?jobid=${runId}&summaryjson`);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    const a = r.json() as TproccArtifact;
    expect([...Value.Errors(TproccArtifact, a)].map((e) => `${e.instancePath} ${e.message}`)).toEqual([]);
    expect(Value.Check(JobArtifact, a)).toBe(true);
    const job = s.store.getJob(runId)!;
    const res = job.result as { nopm: number; tpm: number; activeVus: number };
    expect(a).toMatchObject({ schema: 'hammerdb-job-report-v1', artifact: { type: 'hammerdb-result-json', visibility: 'public', redacted: true }, job: { jobid: runId, database: 'SQLite', benchmark: 'TPROC-C' } });
    expect(a.result).toEqual({ type: 'tproc_c_result', database_display: 'SQLite', active_virtual_users: 2, nopm: res.nopm, tpm: res.tpm, chart_data: [{ metric: 'NOPM', value: res.nopm }, { metric: 'TPM', value: res.tpm }] });
    expect(a.benchmark_config).toEqual({ warehouses: 1, virtual_users: 2, rampup_minutes: 0, duration_minutes: 0.15 });
    expect(a.response_times.rows.map((x) => x.name).sort()).toEqual(['DELIVERY', 'NEWORD', 'OSTAT', 'PAYMENT', 'SLEV']);
    expect(typeof a.response_times.rows[0]!.p95_ms).toBe('number');
    expect(a.transaction_count.series[0]!.points.length).toBe(s.store.getTcount(runId).engine.length);
    expect(a.job.timestamp).toMatch(TS);
    // HammerDB 6's hints and system shapes: its metric names, the active window's keys, the JOBSYSTEM strings.
    expect(a.report_hints.primary_result_metrics).toEqual(['NOPM', 'TPM']);
    expect(a.report_hints.title).toBe('SQLite TPROC-C Benchmark Report');
    expect(a.report_hints.recommended_charts.map((c) => c.data_path)).toEqual(['result.chart_data', 'transaction_count.series[].points', 'response_times.rows', 'metrics.cpu_percent', 'metrics.iops', 'metrics.mbps']);
    const counts = a.transaction_count.series[0]!.points;
    const above = counts.filter((p) => p.value > 1000);
    expect(a.analysis_hints.active_window).toEqual(
      above.length
        ? { available: true, start: above[0]!.timestamp, end: above.at(-1)!.timestamp, method: expect.any(String), transaction_count_min_active_value: 1000, recommended_filter: expect.any(String) }
        : { available: false, note: expect.any(String) },
    );
    expect(Object.keys(a.analysis_hints.shutdown_tail)).toEqual(['present', 'threshold', 'note']);
    expect(a.transaction_count.series[0]).toMatchObject({ name: 'SQLite tpm', database: 'SQLite', database_display: 'SQLite', metric: 'tpm' });
    expect(a.system.available ? Object.values(a.system).slice(1).every((v) => typeof v === 'string' && v !== '') : a.system).toEqual(a.system.available ? true : { available: false, message: 'Jobid has no system data' });
    // The HammerDB results leaderboard accepts it (its JSON schema and its validator's rules); a broken copy it refuses.
    expect(leaderboardErrors(a)).toEqual([]);
    const broken = { ...a, disclaimer: { ...a.disclaimer, audited: true }, job: { ...a.job, benchmark: 'TPC-C', timestamp: '24/11/2026' }, result: { ...a.result, nopm: String(a.result.nopm) } };
    expect(leaderboardErrors(broken)).toEqual([
      'schema: /job/benchmark must be equal to one of the allowed values',
      'disclaimer.audited must be false',
      'job.timestamp must parse as YYYY-MM-DD HH:MM:SS (or the ISO T form)',
    ]);
    expect(leaderboardErrors({ ...a, result: { ...a.result, nopm: String(a.result.nopm) }, benchmark_config: { warehouses: 1 } })).toEqual([
      'result.nopm must be a number for TPROC-C',
      'benchmark_config.virtual_users must exist for TPROC-C',
      'benchmark_config.rampup_minutes must exist for TPROC-C',
      'benchmark_config.duration_minutes must exist for TPROC-C',
    ]);
    // The REST download is the same document.
    const dl = await hdb(s, 'GET', `/api/v1/jobs/${runId}/artifact`);
    expect(dl.headers['content-disposition']).toBe(`attachment; filename="hdb_${runId}.json"`);
    expect(dl.json()).toEqual(a);
  });

  it('resultdata, timingdata, tcountdata, metricsdata: JSON with string leaves', async () => {
    const result = (await get(s, `/jobs?jobid=${runId}&resultdata`)) as string[];
    expect(result).toEqual([runId, expect.stringMatching(TS), '2 Active Virtual Users configured', expect.stringMatching(/^TEST RESULT : System achieved \d+ NOPM from \d+ SQLite TPM$/)]);
    const timing = (await get(s, `/jobs?jobid=${runId}&timingdata`)) as Record<string, Record<string, string>>;
    expect(allStrings(timing)).toBe(true);
    const ratios = Object.values(timing).map((t) => Number(t['ratio_pct']));
    expect(ratios).toEqual([...ratios].sort((x, y) => y - x));
    expect(Object.keys(Object.values(timing)[0]!)).toEqual(['elapsed_ms', 'calls', 'min_ms', 'avg_ms', 'max_ms', 'total_ms', 'p99_ms', 'p95_ms', 'p75_ms', 'p50_ms', 'p25_ms', 'sd', 'ratio_pct']);
    const tcount = (await get(s, `/jobs?jobid=${runId}&tcountdata`)) as Record<string, Record<string, string>>;
    expect(Object.keys(tcount)).toEqual(['SQLite tpm']);
    expect(Object.keys(tcount['SQLite tpm']!).every((t) => TS.test(t))).toBe(true);
    expect(await get(s, `/jobs?jobid=${runId}&metricsdata`)).toEqual([runId, 'Jobid has no metric data']);
    expect(await get(s, `/jobs?jobid=${runId}&system`)).toEqual(['No system data available']);
  });

  it('jobs ID getchart result|timing|tcount: the chart as a self-contained HTML page, returned; metrics without data says so', async () => {
    for (const [type, caption] of [['result', `SQLite TPROC-C Result ${runId}`], ['timing', 'Response time per transaction'], ['tcount', 'NOPM and SQLite TPM']] as const) {
      const r = await jobs(s, runId, 'getchart', type);
      expect(r.output).toEqual([]);
      expect(r.value).toMatch(/^<!doctype html>/);
      expect(r.value).toContain(caption);
      expect(r.value).toContain('<svg');
      expect(r.value).not.toMatch(/<script|https?:\/\//);
    }
    expect(await jobs(s, runId, 'getchart', 'metrics')).toEqual({ output: [`Chart for jobid ${runId} not available, Jobid has no metrics data`], value: '' });
    expect(await jobs(s, runId, 'getchart', 'pie')).toEqual({ output: ['Error: Jobs Three Parameter Usage: jobs jobid getchart [ result | timing | tcount | metrics | profile ]'], value: '' });
    expect(await jobs(s, 'NOSUCHJOB', 'getchart', 'result')).toEqual({ output: ['Jobid NOSUCHJOB does not exist'], value: '' });
    // vurun's whole return value as the job id: HammerDB 4.12 splits it into words and prints its usage.
    expect((await jobs(s, `Benchmark Run jobid=${runId}`, 'result')).output).toEqual([expect.stringMatching(/^Jobs Two Parameter Usage: jobs jobid status or /)]);
  });

  it('metricsdata and system from the agent: one row per 5 samples, geometric means', async () => {
    const sample = (ts: number, usr: number): CpuSample => ({ ts, cpus: [{ cpu: 'all', usr, sys: 2, iowait: 0, irq: 1, soft: 0, steal: 0, idle: 100 - usr - 3 }], iops: 100 + usr, mbps: 1.5 });
    s.store.appendMetrics(runId, 'cpu', [10, 20, 40, 80, 160].map((u, i) => ({ ts: Date.now() + i * 2000, source: 'h (local)', data: sample(Date.now() + i * 2000, u / 4) })));
    s.store.setSystem(runId, 'h (local)', { hostname: 'h', cpuModel: 'Test CPU', cpuCount: 8, memoryBytes: 8 * 2 ** 30, os: 'Linux', kernel: '6.1' });
    const m = Object.values((await get(s, `/jobs?jobid=${runId}&metricsdata`)) as Record<string, Record<string, string>>);
    // usr 2.5, 5, 10, 20, 40: geometric mean 10; iops mean 100 + 15.5 = 115.5 -> %.0f 116
    expect(m).toEqual([{ 'usr%': '10', 'sys%': '2', 'irq%': '1', 'idle%': expect.any(String), iops: '116', mbps: '1.5' }]);
    expect(await get(s, `/jobs?jobid=${runId}&system&raw=1`)).toEqual({ jobid: runId, section: 'system', value: `jobid: ${runId}\nhostname: h\ncpumodel: Test CPU\ncpucount: 8\nos_name: Linux\nmemory: 8.0 GB\nextra: kernel 6.1` });
    // HammerDB 4.12's viewer form: the JOBSYSTEM row as a list, hostname cpucount cpumodel.
    expect(await get(s, `/jobs?jobid=${runId}&system`)).toEqual(['h', '8', 'Test CPU']);
    expect(await get(s, `/jobs?jobid=${runId}&metrics`)).toEqual(await get(s, `/jobs?jobid=${runId}&metricsdata`));
    const cpu = await jobs(s, runId, 'getchart', 'metrics');
    expect(cpu.value).toMatch(/^<!doctype html>/);
    expect(cpu.value).toContain('8 Test CPU');
    const a = (await get(s, `/jobs?jobid=${runId}&summaryjson`)) as TproccArtifact;
    // HammerDB writes every JOBSYSTEM field as a string, cpucount too.
    expect(a.system).toMatchObject({ available: true, hostname: 'h', cpucount: '8' });
    expect(a.metrics.cpu_percent).toEqual([expect.objectContaining({ usr_pct: 10, sys_pct: 2, irq_pct: 1 })]);
    expect(Value.Check(TproccArtifact, a)).toBe(true);
  });

  it('raw sections, the index, and the usage error', async () => {
    expect(await get(s, `/jobs?jobid=${runId}&bm&raw=1`)).toEqual({ jobid: runId, section: 'bm', value: 'TPROC-C' });
    expect(await get(s, `/jobs?jobid=${runId}&db&raw=1`)).toEqual({ jobid: runId, section: 'db', value: 'SQLite' });
    expect(((await get(s, `/jobs?jobid=${runId}&status&raw=1`)) as { value: string }).value).toMatch(/ALL VIRTUAL USERS COMPLETE$/);
    expect(((await get(s, `/jobs?jobid=${runId}&dict&raw=1`)) as { value: string }).value).toMatch(/^connection \{.*\} tpcc \{.*sqlite_duration 0\.15/);
    const index = (await get(s, `/jobs?jobid=${runId}&index`)) as { links: { name: string; url: string }[] };
    expect(index.links.map((l) => l.name)).toEqual(['summary', 'summaryjson', 'output', 'benchmark', 'database', 'dict configuration', 'result', 'status', 'transaction count', 'system', 'metrics', 'timestamp', 'response times', 'delete']);
    expect(index.links[1]!.url).toBe(`/jobs?jobid=${runId}&summaryjson`);
    expect(await get(s, `/jobs?jobid=${runId}&bogus&raw=1`)).toEqual({ error: { message: 'Usage: /jobs | jobs?jobid=JOBID | jobs?jobid=JOBID&index | jobs?jobid=JOBID&summary | jobs?jobid=JOBID&bm|db|dict|status|system|timestamp | add &raw=1 for JSON' } });
    const browser = await hdb(s, 'GET', `/jobs?jobid=${runId}&index`, undefined, { accept: 'text/html' });
    expect([browser.status, browser.headers['location']]).toEqual([302, `/jobs/${runId}`]);
  });

  it('the CLI jobs verb: tables, lists, per-job forms, JSON by default and text', async () => {
    const table = await jobs(s);
    expect(table.output).toEqual([]);
    const rows = table.value.split('\n');
    expect(rows.slice(0, 3)).toEqual(['TPROC-C Jobs', `${'Jobid'.padEnd(26)} ${'Database'.padEnd(18)} ${'Date'.padEnd(19)} ${'Workload'.padEnd(14)} ${'NOPM'.padEnd(10)} ${'Status'.padEnd(8)}`, '-'.repeat(100)]);
    const nopm = (s.store.getJob(runId)!.result as { nopm: number }).nopm;
    expect(rows[3]).toMatch(new RegExp(`^${runId}   SQLite \\([^)]+\\)\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d Benchmark Run  ${nopm}\\s+TOP\\s*$`));
    expect(rows.some((l) => / Schema Build {3}-- {9}SUCCESS/.test(l))).toBe(true);
    expect((await jobs(s, 'joblist')).value.split(' ')).toContain(runId);
    // JSON by default (HammerDB's jobsoutput since 4.7): huddle's pretty JSON of each form, every leaf a string.
    const parsed = async (...args: string[]) => JSON.parse((await jobs(s, ...args)).output.join('\n')) as unknown;
    const resultdata = (await get(s, `/jobs?jobid=${runId}&resultdata`)) as string[];
    expect((await jobs(s, runId, 'result')).output).toEqual(JSON.stringify(resultdata, null, 2).split('\n'));
    expect((await jobs(s, runId, 'bm')).output).toEqual(['[', '  "TPC-C"', ']']);
    expect(await parsed(runId, 'db')).toEqual(['SQLite', expect.stringMatching(/^\d+\.\d+/)]);
    const status = (await parsed(runId, 'status')) as string[];
    expect([status.filter((_, i) => i % 2 === 0).every((v) => v === '0'), status.slice(-2)]).toEqual([true, ['0', 'ALL VIRTUAL USERS COMPLETE']]);
    const vu1 = (await parsed(runId, '1')) as string[];
    expect([vu1.length > 0, vu1.filter((_, i) => i % 2 === 0).every((v) => v === '1')]).toEqual([true, true]);
    expect(await parsed(runId, 'timestamp')).toEqual({ [runId]: expect.stringMatching(TS) });
    const timing = (await parsed(runId, 'timing')) as Record<string, Record<string, string>>;
    expect(Object.keys(timing).sort()).toEqual(['DELIVERY', 'NEWORD', 'OSTAT', 'PAYMENT', 'SLEV']);
    expect(Object.keys(timing['NEWORD']!)).toEqual(['elapsed_ms', 'calls', 'min_ms', 'avg_ms', 'max_ms', 'total_ms', 'p99_ms', 'p95_ms', 'p75_ms', 'p50_ms', 'p25_ms', 'sd', 'ratio_pct']);
    expect(Object.values(timing['NEWORD']!).every((v) => typeof v === 'string')).toBe(true);
    const vu2json = await jobs(s, runId, 'timing', '2');
    expect([vu2json.output, Object.keys(JSON.parse(vu2json.value) as object)]).toEqual([[], expect.arrayContaining(['NEWORD'])]);
    const tcount = (await parsed(runId, 'tcount')) as Record<string, Record<string, string>>;
    expect([Object.keys(tcount), Object.entries(tcount['SQLite tpm']!).every(([t, v]) => TS.test(t) && /^\d+$/.test(v))]).toEqual([['SQLite tpm'], true]);
    expect(await parsed(runId, 'dict')).toMatchObject({ tpcc: expect.objectContaining({ sqlite_driver: 'timed' }) });
    const jr = (await parsed('result')) as Record<string, Record<string, string> | string>;
    expect(jr[runId]).toMatchObject({ db: 'SQLite', bm: 'TPC-C', activevu: '2', nopm: String(nopm) });
    expect(Object.values(jr).filter((v) => v === 'Jobid has no test result').length).toBe(1);
    expect(await parsed('timestamp')).toMatchObject({ [runId]: expect.stringMatching(TS) });
    // jobs format text: HammerDB's Tcl lists and dicts.
    expect(await jobs(s, 'format', 'text')).toEqual({ output: ['Setting jobs output format to text'], value: '' });
    expect((await jobs(s, runId, 'result')).output).toEqual(resultdata);
    expect((await jobs(s, runId, 'bm')).output).toEqual(['TPC-C']);
    expect((await jobs(s, runId, 'status')).output.at(-1)).toBe('Virtual User 0: ALL VIRTUAL USERS COMPLETE');
    expect((await jobs(s, runId, '1')).output.every((l) => l.startsWith('Virtual User 1: '))).toBe(true);
    expect((await jobs(s, runId, 'timestamp')).output[0]).toMatch(new RegExp(`^${runId} \\{\\d{4}-`));
    expect((await jobs(s, runId, 'timing')).output[0]).toMatch(/^(NEWORD|PAYMENT|DELIVERY|SLEV|OSTAT) \{elapsed_ms [\d.]+ calls \d+ /);
    const vu2 = await jobs(s, runId, 'timing', '2');
    expect([vu2.output, vu2.value.startsWith('NEWORD {') || / NEWORD \{/.test(vu2.value)]).toEqual([[], true]);
    expect((await jobs(s, runId, 'timing', '9')).output).toEqual([`No Timing Data for VU 9 for JOB ${runId}: jobs jobid timing vuid`]);
    expect((await jobs(s, runId, 'tcount')).output[0]).toMatch(/^\{SQLite tpm\} \{\{\d{4}-/);
    expect((await jobs(s, runId, 'bogus')).output[0]).toMatch(/^Jobs Two Parameter Usage: /);
    expect((await jobs(s, 'result')).output[0]).toContain(`${runId} {db SQLite bm TPC-C tstamp {`);
    expect((await jobs(s, runId, 'db')).output).toEqual(['SQLite', expect.stringMatching(/^\d+\.\d+/)]);
    await jobs(s, 'format', 'JSON');
    const saved = await jobs(s, runId, 'save');
    const file = /to (.+)$/.exec(saved.output[0]!)![1]!;
    expect(existsSync(file)).toBe(true);
    expect(Value.Check(TproccArtifact, JSON.parse(readFileSync(file, 'utf8')))).toBe(true);
  });

  it('DELETE: a completed job goes; a build job has no artifact', async () => {
    const build = s.store.listJobs({ type: 'build' }).jobs[0]!;
    expect(await get(s, `/jobs?jobid=${build.id}&summaryjson`)).toEqual({ error: { message: expect.stringMatching(/^Jobid [0-9A-F]{24} has no test result/) } });
    expect((await hdb(s, 'GET', `/api/v1/jobs/${build.id}/artifact`)).status).toBe(400);
    expect(await get(s, `/jobs?jobid=${build.id}&DELETE`)).toEqual({ success: { message: `Deleted Jobid ${build.id}` } });
    expect(await get(s, `/jobs?jobid=${build.id}&index`)).toEqual({ error: { message: `Jobid ${build.id} does not exist` } });
  });
});

describe('DELETE of a job that has not completed', () => {
  it('refuses within 24 hours, as HammerDB does', async () => {
    const s = await makeApp();
    try {
      const j = s.store.createJob({ type: 'run', workload: 'tprocc', engine: 'sqlite', config: {}, seed: 1, profileId: 0, clientVersion: 't' });
      s.store.updateJob(j.id, { status: 'connecting' });
      const r = (await get(s, `/jobs?jobid=${j.id}&DELETE`)) as { error: { message: string } };
      expect(r.error.message).toMatch(new RegExp(`^Cannot delete Jobid ${j.id} from \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d did not complete and ran less than 24 hours ago$`));
      expect(s.store.getJob(j.id)).toBeDefined();
    } finally {
      await s.app.close();
    }
  });
});

describe('a TPROC-H power run: its artifact', () => {
  it('query_times from VU 1, geomean and query time as numbers', async () => {
    const s = await makeApp();
    try {
      const target = { engine: 'sqlite', file: 'v6h.sqlite' };
      const b = await post(s, '/api/v1/jobs', { type: 'build', workload: 'tproch', target, tproch: { scaleFactor: 0.01, buildVus: 1 } });
      expect((await waitJob(s, b.body['id'] as string)).status).toBe('completed');
      const r = await post(s, '/api/v1/jobs', { type: 'run', workload: 'tproch', target, tproch: { scaleFactor: 0.01, mode: 'power', explain: false } });
      const id = r.body['id'] as string;
      expect((await waitJob(s, id)).status).toBe('completed');
      const a = (await get(s, `/jobs?jobid=${id}&summaryjson`)) as TprochArtifact;
      expect([...Value.Errors(TprochArtifact, a)].map((e) => `${e.instancePath} ${e.message}`)).toEqual([]);
      expect(a.benchmark_config).toEqual({ scale_factor: 0.01 });
      expect(a.result.type).toBe('tproc_h_result');
      expect(a.result.geomean_seconds).toBeGreaterThan(0);
      // HammerDB's query_times: VU 1's queries in the order it ran them, named by query number.
      expect([a.query_times.type, a.query_times.unit]).toEqual(['bar', 'milliseconds']);
      expect(a.query_times.rows.map((q) => Number(q.name)).sort((x, y) => x - y)).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
      expect(a.query_times.rows.every((q) => q.total_ms === Math.round(q.seconds * 1e6) / 1000)).toBe(true);
      const run = s.store.getJob(id)!.result as { queries: { query: number; position: number }[] };
      expect(a.query_times.rows.map((q) => q.name)).toEqual([...run.queries].sort((x, y) => x.position - y.position).map((q) => String(q.query)));
      expect(a.report_hints.primary_result_metrics).toEqual(['geomean_seconds', 'total_query_time_seconds']);
      expect(a.analysis_hints).toEqual({ active_window: { available: false, note: expect.any(String) }, shutdown_tail: { present: true, note: expect.any(String) } });
      expect(leaderboardErrors(a)).toEqual([]);
      expect(a.result.chart_data.map((c) => c.metric)).toEqual(['Geomean', 'Query Time']);
      expect('transaction_count' in a).toBe(false);
      const timing = (await get(s, `/jobs?jobid=${id}&timingdata`)) as string[];
      expect(timing.filter((_, i) => i % 2 === 0).every((v) => v === '1')).toBe(true);
      expect((await get(s, `/jobs?jobid=${id}&bm&raw=1`)) as object).toEqual({ jobid: id, section: 'bm', value: 'TPROC-H' });
    } finally {
      await s.app.close();
    }
  }, 240_000);
});
