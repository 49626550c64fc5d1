import { describe, expect, it } from 'vitest';
import { MAX_SCRIPTS, type Job } from '@sledge/protocol';
import { placeErrors, precheckJob } from '../../forms/errors.js';
import { ApiError } from '../../api/http.js';
import { SCRIPT_UI } from './index.js';
import {
  addDraft,
  checkRequest,
  draftText,
  draftsOf,
  draftsValue,
  editDraft,
  errorsByDraft,
  pickBuiltin,
  removeDraft,
  scriptToForm,
  weightShares,
  type ScriptDraft,
} from './form.js';
import { configSummary, countsOf, jobScripts, scriptOps } from './jobs.js';

const { form } = SCRIPT_UI;
const own = (name: string, text: string, weight = '1'): ScriptDraft => ({ name, weight, text });

describe('script workload form', () => {
  it("starts with pgbench's tpcb-like and takes its run options from protocol's ScriptOptions", () => {
    const d = form.defaults();
    expect(draftsOf(d['scripts'])).toEqual([{ name: 'tpcb-like', weight: '1', text: '', builtin: 'tpcb-like' }]);
    expect(d).toMatchObject({ vus: '1', rampup: '0', duration: '1', scale: '0', workers: '0' });
    expect(form.collect(d, form.runFields)).toEqual({ scripts: [{ name: 'tpcb-like', builtin: 'tpcb-like', weight: 1 }], vus: 1, rampup: 0, duration: 1, scale: 0, workers: 0 });
    // script.threads (the native loop's threads, pgbench's -j) is sent only when set: blank is one per core.
    expect(d['threads']).toBe('');
    expect(form.collect({ ...d, threads: '2' }, form.runFields)).toMatchObject({ threads: 2, workers: 0 });
    // A build sends the scale only.
    expect(form.collect({ ...d, scale: '3' }, form.buildFields)).toEqual({ scale: 3 });
  });

  it('adds, removes and names scripts; a run keeps at least one and at most MAX_SCRIPTS', () => {
    let list = addDraft(draftsOf(undefined));
    expect(list.map((x) => x.name)).toEqual(['tpcb-like', 'script1']);
    list = addDraft(list);
    expect(list.map((x) => x.name)).toEqual(['tpcb-like', 'script1', 'script2']);
    list = removeDraft(list, 1);
    expect(list.map((x) => x.name)).toEqual(['tpcb-like', 'script2']);
    expect(addDraft(list).at(-1)!.name).toBe('script1');
    expect(removeDraft([own('a', 'SELECT 1;')], 0)).toEqual([own('a', 'SELECT 1;')]);
    let full: ScriptDraft[] = [];
    for (let i = 0; i < MAX_SCRIPTS + 3; i++) full = addDraft(full);
    expect(full).toHaveLength(MAX_SCRIPTS);
  });

  it('starts a script from a built-in (its name when generic and free); editing the text makes it the user\'s own', () => {
    const list = [own('script1', ''), own('mine', 'SELECT 1;', '5')];
    const a = pickBuiltin(list, 0, 'select-only');
    expect(a[0]).toEqual({ name: 'select-only', weight: '1', text: '', builtin: 'select-only' });
    // A name the user chose stays; a taken built-in name is not reused.
    expect(pickBuiltin(list, 1, 'simple-update')[1]).toEqual({ name: 'mine', weight: '5', text: '', builtin: 'simple-update' });
    expect(pickBuiltin(a, 1, 'select-only')[1]!.name).toBe('mine');
    const builtins = { 'select-only': '\\set aid random(1, 100000 * :scale)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n' };
    expect(draftText(a[0]!, builtins)).toBe(builtins['select-only']);
    const edited = editDraft(a, 0, { text: `${draftText(a[0]!, builtins)}SELECT 2;\n` });
    expect(edited[0]!.builtin).toBeUndefined();
    expect(form.collect({ ...form.defaults(), scripts: draftsValue(edited) }, ['scripts'])['scripts']).toEqual([
      { name: 'select-only', text: `${builtins['select-only']}SELECT 2;\n`, weight: 1 },
      { name: 'mine', text: 'SELECT 1;', weight: 5 },
    ]);
    // Renaming or reweighting a built-in keeps it a built-in.
    expect(editDraft(a, 0, { weight: '3' })[0]).toEqual({ name: 'select-only', weight: '3', text: '', builtin: 'select-only' });
  });

  it('checks names, weights and empty scripts before any request, at the script they concern', () => {
    const values = { ...form.defaults(), scripts: draftsValue([own('a', 'SELECT 1;', '0'), own('a', '   ', '0')]) };
    const body = { type: 'run', target: { engine: 'sqlite', file: 'pgbench.sqlite' }, script: form.collect(values, form.runFields) };
    const err = precheckJob(body, form);
    expect(err).toBeInstanceOf(ApiError);
    const keys = form.runFields.map((n) => `script.${n}`);
    const placed = placeErrors(err, keys, form.labels);
    expect(placed.fields['script.scripts[1]']).toMatch(/is empty|is used by/);
    expect(placed.fields['script.scripts']).toMatch(/every script has weight 0/);
    expect(placed.general).toBeUndefined();
    // A job's syntax error (server side) is placed at its script too.
    const server = new ApiError('SLEDGE_E_VALIDATION', 'a:2:17: unexpected ")"', 400, 'script.scripts[0].text');
    expect(placeErrors(server, keys, form.labels).fields['script.scripts[0]']).toBe('a:2:17: unexpected ")"');
  });

  it('sends the check only the scripts with text of their own and maps its answers back to them', () => {
    const list: ScriptDraft[] = [{ name: 'tpcb-like', weight: '1', text: '', builtin: 'tpcb-like' }, own('', 'SELECT 1;'), own('empty', ' \n'), own('bad', 'SELECT (;')];
    const req = checkRequest(list);
    expect(req).toEqual({ sent: [1, 3], scripts: [{ name: 'script2', text: 'SELECT 1;' }, { name: 'bad', text: 'SELECT (;' }] });
    const errors = errorsByDraft(
      {
        ok: false,
        scripts: [
          { name: 'script2', field: 'script.scripts[0].text', commands: 1 },
          { name: 'bad', field: 'script.scripts[1].text', commands: 0, error: { line: 1, column: 9, message: 'unterminated (', text: 'bad:1:9: unterminated (' } },
        ],
      },
      req.sent,
    );
    expect(errors).toEqual({ 3: { line: 1, column: 9, message: 'unterminated (' } });
  });

  it('shows each weight as a share, none while a weight is not a whole number', () => {
    expect(weightShares([own('a', '', '3'), own('b', '', '1')])).toEqual([75, 25]);
    expect(weightShares([own('a', '', ''), own('b', '', '1')])).toEqual([50, 50]);
    expect(weightShares([own('a', '', 'x')])).toBeUndefined();
    expect(weightShares([own('a', '', '0')])).toBeUndefined();
  });

  it("reads a stored job's scripts back into the form (Edit and run), built-ins as built-ins", () => {
    const v = scriptToForm({ vus: 4, duration: 0.5, scripts: [{ name: 'tpcb-like', builtin: 'tpcb-like', text: 'BEGIN;…', weight: 2 }, { name: 'mine', text: 'SELECT 1;', weight: 5 }] });
    expect(v).toMatchObject({ vus: '4', duration: '0.5', rampup: '0' });
    expect(draftsOf(v['scripts'])).toEqual([{ name: 'tpcb-like', weight: '2', text: '', builtin: 'tpcb-like' }, own('mine', 'SELECT 1;', '5')]);
    expect(draftsOf('not json')).toEqual(draftsOf(undefined));
  });

  it('sends the run shape (step loads as text, the arrival rate by field) as script.steps and script.arrival, and reads it back', () => {
    const form = SCRIPT_UI.form;
    expect(form.runFields).toEqual(expect.arrayContaining(['steps', 'arrival.rate', 'arrival.rampTo', 'arrival.maxSessions', 'arrival.graceMs']));
    const d = form.defaults();
    expect(form.collect({ ...d, steps: '0:1:2, 1:1:4' }, form.runFields)['steps']).toEqual([
      { startAfterMin: 0, durationMin: 1, vus: 2 },
      { startAfterMin: 1, durationMin: 1, vus: 4 },
    ]);
    // not parsable: sent as typed, so the server's error names script.steps
    expect(form.collect({ ...d, steps: '0:1' }, form.runFields)['steps']).toBe('0:1');
    const arrival = form.collect({ ...d, 'arrival.rate': '200', 'arrival.maxSessions': '16' }, form.runFields);
    expect(arrival['arrival']).toEqual({ rate: 200, maxSessions: 16 });
    expect(arrival['steps']).toBeUndefined();
    const back = scriptToForm({ vus: 2, steps: [{ startAfterMin: 0, durationMin: 1, vus: 2 }, { startAfterMin: 1, durationMin: 1, vus: 4 }], arrival: { rate: 50, maxSessions: 4 } });
    expect(back).toMatchObject({ steps: '0:1:2, 1:1:4', 'arrival.rate': '50', 'arrival.maxSessions': '4', 'arrival.rampTo': '' });
    expect(form.labels['script.steps']).toBe('Step loads');
    expect(form.labels['script.arrival.rate']).toBe('Arrival rate (tx/s)');
  });
});

describe('script job view', () => {
  const job = {
    type: 'run',
    config: { script: { vus: 2, rampup: 0, duration: 0.1, scripts: [{ name: 'a', text: 'SELECT 1;', weight: 3 }, { name: 'tpcb-like', builtin: 'tpcb-like', text: 'BEGIN;', weight: 1 }] } },
  } as unknown as Job;

  it('reads the stored scripts, one operation each in the palette order, and a one-line summary', () => {
    expect(jobScripts(job)).toEqual([
      { name: 'a', text: 'SELECT 1;', weight: 3, builtin: undefined },
      { name: 'tpcb-like', text: 'BEGIN;', weight: 1, builtin: 'tpcb-like' },
    ]);
    const ops = scriptOps(job);
    expect(ops.map((o) => o.id)).toEqual(['a', 'tpcb-like']);
    expect(ops[0]!.color.light).not.toBe(ops[1]!.color.light);
    expect(configSummary(job)).toEqual(['a@3 tpcb-like@1', '2 VUs', 'rampup 0 min', '0.1 min measured']);
  });

  it("counts each script's executions from its latency samples", () => {
    const s = (ts: number, perType: Record<string, number>) => ({ ts, perType: Object.fromEntries(Object.entries(perType).map(([k, count]) => [k, { count, p50: 1, p95: 2, p99: 3, max: 4 }])) });
    expect(countsOf([s(1, { a: 3, 'tpcb-like': 1 }), s(2, { a: 4 })])).toEqual({ a: 7, 'tpcb-like': 1 });
  });
});
