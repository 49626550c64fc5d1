import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Field } from '../../components/Field.js';
import type { FormValues } from '../../forms/fields.js';
import { placeErrors, precheckJob } from '../../forms/errors.js';
import { setKnownCapabilities } from '../../state/capabilities.js';
import { defaultsFor, switchEngineDefaults } from '../../state/engine-defaults.js';
import type { Capabilities } from '@sledge/protocol';
import { jobCreateBody } from '../../util/rerun.js';
import { bodyOptions, nestedOptions, optionKey } from '../body.js';
import { workloadUi } from '../index.js';
import { CHBENCH_UI } from './index.js';
import { ChbenchRunOptions } from './RunOptions.js';
import { chbenchJob } from './fixtures.js';

const { form } = CHBENCH_UI;

/** The Run page's body, as the page builds it: `{ type, target, workload, ...bodyOptions(form, options) }`. */
const runBody = (values: FormValues): Record<string, unknown> & { target: unknown } => ({ type: 'run', workload: 'chbench', target: { engine: 'sqlite', file: 'chbench.sqlite' }, ...bodyOptions(form, form.collect(values, form.runFields)) });

const fieldsWith = (values: FormValues, errors: Record<string, string> = {}) => (name: string, hint?: string) =>
  createElement(Field, { key: name, spec: form.field(name), fieldKey: optionKey(form, name), value: values[name], onChange: () => undefined, error: errors[optionKey(form, name)], hint });

describe('CH-benCHmark form', () => {
  it('is registered beside TPROC-C and TPROC-H', () => {
    expect(workloadUi('chbench')).toBe(CHBENCH_UI);
    expect(CHBENCH_UI.name).toBe('CH-benCHmark');
  });

  it("sends TPROC-C's run options as `tprocc` and the analytic streams as `chbench`", () => {
    const values = { ...form.defaults(), vus: '2', rampup: '0', duration: '0.25', 'chbench.analyticStreams': '1', 'chbench.dop': '4', 'chbench.queryTimeoutSec': '30', 'chbench.raiseQueryError': true };
    const body = runBody(values);
    expect(body.tprocc).toMatchObject({ vus: 2, rampup: 0, duration: 0.25, mix: { neworder: 10, payment: 10 } });
    // The timed driver only: no driver choice, no test-driver iterations, no run shapes; nothing of the analytic part in tprocc.
    for (const k of ['driver', 'totalIterations', 'steps', 'arrival', 'chbench', 'analyticStreams']) expect(body.tprocc).not.toHaveProperty(k);
    expect(body.chbench).toEqual({ analyticStreams: 1, dop: 4, queryTimeoutSec: 30, raiseQueryError: true });
    // The body passes the client-side check exactly as the server's parse takes it.
    expect(precheckJob(body, form)).toBeNull();
    expect(form.parse(nestedOptions(form, body), 'tprocc', 'sqlite')).toMatchObject({ tprocc: { vus: 2, driver: 'timed' }, chbench: { analyticStreams: 1, dop: 4 } });
  });

  it('builds with TPROC-C\'s build options only (no `chbench` part)', () => {
    const build = bodyOptions(form, form.collect({ ...form.defaults(), warehouses: '3', buildVus: '2' }, form.buildFields));
    expect(build).toEqual({ tprocc: { warehouses: 3, buildVus: 2 } });
    expect(form.schemaFields?.('postgresql').map((f) => f.name)).toEqual(expect.arrayContaining(['partition', 'storedProcs']));
  });

  it('takes 0 VUs (the analytic streams alone, as DuckDB runs it), but not 0 VUs and 0 streams', () => {
    expect(precheckJob(runBody({ ...form.defaults(), vus: '0', 'chbench.analyticStreams': '1' }), form)).toBeNull();
    const err = precheckJob(runBody({ ...form.defaults(), vus: '0', 'chbench.analyticStreams': '0' }), form);
    expect(err?.message).toMatch(/nothing to run/);
  });

  it('places bad analytic values at their own fields (`chbench.<name>`), worded with their labels', () => {
    const values = { ...form.defaults(), vus: '-1', 'chbench.analyticStreams': '65', 'chbench.queryTimeoutSec': '-1' };
    const err = precheckJob(runBody(values), form);
    expect(err).not.toBeNull();
    const keys = form.runFields.map((n) => optionKey(form, n));
    expect(keys).toEqual(expect.arrayContaining(['tprocc.vus', 'chbench.analyticStreams', 'chbench.dop']));
    const placed = placeErrors(err, keys, form.labels);
    expect(Object.keys(placed.fields).sort()).toEqual(['chbench.analyticStreams', 'chbench.queryTimeoutSec', 'tprocc.vus']);
    expect(placed.fields['chbench.analyticStreams']).toMatch(/^Analytic streams must be <= 64/);
    expect(placed.general).toBeUndefined();
    const html = renderToStaticMarkup(createElement(ChbenchRunOptions, { engine: 'sqlite', field: fieldsWith(values, placed.fields), values, setValue: () => undefined }));
    expect(html).toMatch(/id="f-chbench-analyticStreams"[^>]*aria-invalid="true"/);
    expect(html).toContain('Analytic streams</legend>');
  });

  it('shows DOP only where the engine applies one (its TPROC-H feature, as capabilities say)', () => {
    const values = form.defaults();
    const render = (engine: 'sqlite' | 'postgresql') => renderToStaticMarkup(createElement(ChbenchRunOptions, { engine, field: fieldsWith(values), values, setValue: () => undefined }));
    setKnownCapabilities({ version: 't', node: 'v', cpus: 1, generator: { active: 'typescript' }, engines: [
      { engine: 'sqlite', displayName: 'SQLite', available: true, library: 'x', workloads: ['tprocc', 'tproch', 'chbench'], workloadFeatures: { tproch: { dop: false } } },
      { engine: 'postgresql', displayName: 'PostgreSQL', available: true, library: 'x', workloads: ['tprocc', 'tproch', 'chbench'], workloadFeatures: { tproch: { dop: true } } },
    ] });
    try {
      expect(render('sqlite')).not.toContain('id="f-chbench-dop"');
      expect(render('postgresql')).toContain('id="f-chbench-dop"');
      expect(render('postgresql')).toContain('id="f-chbench-queryTimeoutSec"');
      expect(render('sqlite')).not.toContain('id="f-tprocc-driver"');
    } finally {
      setKnownCapabilities(undefined);
    }
  });

  it('defaults to 0 VUs where capabilities say the engine runs the analytic streams alone (DuckDB), and moves a default when the engine changes', () => {
    const caps: Capabilities = { version: 't', node: 'v', cpus: 1, generator: { active: 'typescript' }, engines: [
      { engine: 'postgresql', displayName: 'PostgreSQL', available: true, library: 'x', workloads: ['tprocc', 'tproch', 'chbench'] },
      { engine: 'duckdb', displayName: 'DuckDB', available: true, library: 'x', workloads: ['tproch', 'tprocc', 'chbench'], limited: { tprocc: 'Schema only (build, check, delete; no runs). No transactions.', chbench: 'Analytic streams only: runs take tprocc.vus 0. No transactions.' } },
    ] };
    const duck = { engine: 'duckdb' as const, caps };
    const pg = { engine: 'postgresql' as const, caps };
    expect(defaultsFor(form, duck)).toMatchObject({ vus: '0', 'chbench.analyticStreams': '1' });
    expect(defaultsFor(form, pg)['vus']).toBe(form.defaults()['vus']);
    expect(form.defaults()['vus']).toBe('1');
    // Unknown capabilities: the engine-free default, which moves once they load.
    expect(defaultsFor(form, { engine: 'duckdb', caps: undefined })['vus']).toBe('1');
    expect(switchEngineDefaults(form, form.defaults(), { engine: 'duckdb', caps: undefined }, duck)['vus']).toBe('0');
    // A value at one engine's default takes the other's; a value the user chose stays.
    expect(switchEngineDefaults(form, defaultsFor(form, pg), pg, duck)['vus']).toBe('0');
    expect(switchEngineDefaults(form, defaultsFor(form, duck), duck, pg)['vus']).toBe('1');
    expect(switchEngineDefaults(form, { ...form.defaults(), vus: '4' }, pg, duck)['vus']).toBe('4');
    // The form's body with the default is one the server takes on DuckDB: VUs 0 and one analytic stream.
    const values = defaultsFor(form, duck);
    expect(form.collect(values, form.runFields)).toMatchObject({ vus: 0, chbench: { analyticStreams: 1 } });
    expect(precheckJob(runBody(values), form)).toBeNull();
    setKnownCapabilities(caps);
    try {
      const html = renderToStaticMarkup(createElement(ChbenchRunOptions, { engine: 'duckdb', field: fieldsWith(values), values, setValue: () => undefined }));
      expect(html).toContain('0 on DuckDB: it runs the analytic streams alone, no TPROC-C transactions');
      // 0 is in the VUs field's range on every engine (the transactions alone need streams).
      expect(html).toMatch(/Virtual users<span class="range"> \(0–10000\)/);
    } finally {
      setKnownCapabilities(undefined);
    }
  });

  it('repeats a stored job with both parts and reads them back into the form', () => {
    const j = chbenchJob();
    const body = jobCreateBody(j) as unknown as Record<string, unknown>;
    expect(body).toMatchObject({ workload: 'chbench', tprocc: { vus: 2, duration: 0.25 }, chbench: { analyticStreams: 1, dop: 2, queryTimeoutSec: 30 } });
    const values = form.toForm(nestedOptions(form, body));
    expect(values).toMatchObject({ vus: '2', duration: '0.25', 'chbench.analyticStreams': '1', 'chbench.dop': '2', 'chbench.queryTimeoutSec': '30', 'chbench.raiseQueryError': false });
    expect(CHBENCH_UI.summary(j)).toEqual(['2 VUs', 'rampup 0 min', '0.25 min measured', '1 analytic stream', 'query timeout 30 s']);
  });

  it("refuses TPROC-C options CH-benCHmark has no use for, at TPROC-C's paths", () => {
    expect(() => form.parse({ driver: 'test' }, 'tprocc', 'sqlite')).toThrow(/tprocc\.driver/);
  });
});
