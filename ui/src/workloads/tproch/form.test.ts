import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createElement } from 'react';
import { Field } from '../../components/Field.js';
import { placeErrors, precheckJob } from '../../forms/errors.js';
import { TPROCH_UI } from './index.js';
import { TprochBuildOptions, TprochRunOptions } from './RunOptions.js';
import { setKnownCapabilities } from '../../state/capabilities.js';
import { scaleHint, streamsHint, tprochToForm } from './form.js';
import type { FormValues } from '../../forms/fields.js';

const { form } = TPROCH_UI;

/** The Run page's field function over given values and errors, as the page draws it. */
const fieldsWith = (values: FormValues, errors: Record<string, string> = {}) => (name: string, hint?: string) =>
  createElement(Field, { key: name, spec: form.field(name), fieldKey: `tproch.${name}`, value: values[name], onChange: () => undefined, error: errors[`tproch.${name}`], hint });

describe('TPROC-H form', () => {
  it("takes its fields and defaults from protocol's TprochOptions", () => {
    const d = form.defaults();
    expect(d).toMatchObject({ scaleFactor: '1', buildVus: '1', mode: 'power', streams: '', querySets: '1', refresh: false, updateSets: '1', trickleMs: '1000', dop: '2', queryTimeoutSec: '0', raiseQueryError: false, validation: false, explain: true, verbose: false });
    expect(form.field('mode').options).toEqual(['power', 'throughput', 'performance']);
    expect(form.buildFields).toEqual(['scaleFactor', 'buildVus']);
    expect(form.runFields).toEqual(expect.arrayContaining(['scaleFactor', 'mode', 'streams', 'querySets', 'refresh', 'updateSets', 'trickleMs', 'dop', 'queryTimeoutSec', 'raiseQueryError', 'validation', 'explain', 'verbose']));
    // Every run field is one of the schema's, and the body carries typed values.
    const body = form.collect({ ...d, scaleFactor: '0.01', mode: 'throughput', streams: '3' }, form.runFields);
    expect(body).toMatchObject({ scaleFactor: 0.01, mode: 'throughput', streams: 3, explain: true });
    expect(form.parse(body, 'tproch')).toMatchObject({ scaleFactor: 0.01, streams: 3 });
    expect(tprochToForm({ scaleFactor: 10, refresh: true })).toMatchObject({ scaleFactor: '10', refresh: true, mode: 'power' });
  });

  it('reports every bad value at its field before a request, worded with the labels', () => {
    const values = { ...form.defaults(), scaleFactor: '0', streams: '0', queryTimeoutSec: '-1' };
    const err = precheckJob({ target: { engine: 'sqlite', file: 'x.db' }, tproch: form.collect(values, form.runFields) }, form);
    expect(err).not.toBeNull();
    const placed = placeErrors(err, form.runFields.map((n) => `tproch.${n}`), form.labels);
    expect(Object.keys(placed.fields).sort()).toEqual(['tproch.queryTimeoutSec', 'tproch.scaleFactor', 'tproch.streams']);
    expect(placed.fields['tproch.scaleFactor']).toMatch(/^Scale factor must be > 0/);
    expect(placed.fields['tproch.queryTimeoutSec']).toMatch(/^Query timeout \(s\); 0 = none must be >= 0/);
    expect(placed.general).toBeUndefined();
    // The Run page shows each under its input.
    const html = renderToStaticMarkup(createElement(TprochRunOptions, { engine: 'sqlite', field: fieldsWith(values, placed.fields), values, setValue: () => undefined }));
    expect(html).toMatch(/id="f-tproch-scaleFactor"[^>]*aria-invalid="true"/);
    expect(placed.fields['tproch.streams']).toBe('Query streams must be >= 1 (got 0)');
    expect(html).toContain('<p class="field-error" id="f-tproch-streams-error" role="alert">Query streams must be &gt;= 1 (got 0)</p>');
    expect(html).toContain('id="f-tproch-queryTimeoutSec-error"');
    expect(html).not.toContain('id="f-tproch-dop-error"');
  });

  it('marks a fractional scale factor non-standard and says what no streams means for the SF', () => {
    expect(scaleHint('1')).toBe('Standard: 1, 10, 30, 100, 300, 1000, 3000, 10000, 30000, 100000.');
    expect(scaleHint('0.01')).toMatch(/^SF 0\.01 is non-standard/);
    expect(scaleHint('2')).toMatch(/^SF 2 is non-standard/);
    expect(streamsHint('', '1')).toBe('Empty: the TPC-H count for SF 1, 2 streams (this run: 2). Throughput test only; a power test runs one stream.');
    expect(streamsHint('4', '100')).toBe('Empty: the TPC-H count for SF 100, 5 streams. Throughput test only; a power test runs one stream.');
    expect(streamsHint('', '0.1')).toContain('SF 0.1, 2 streams');
    expect(streamsHint('', 'x')).toMatch(/^Empty: the TPC-H count for the scale factor\./);
    const values = { ...form.defaults(), scaleFactor: '0.1' };
    const build = renderToStaticMarkup(createElement(TprochBuildOptions, { engine: 'sqlite', field: fieldsWith(values), values, setValue: () => undefined }));
    expect(build).toContain('SF 0.1 is non-standard');
    expect(build).toMatch(/data-testid="sf-0.1"[^>]*>|aria-pressed="true"[^>]*data-testid="sf-0.1"/);
    expect(build).toContain('data-testid="sf-1000"');
    const run = renderToStaticMarkup(createElement(TprochRunOptions, { engine: 'sqlite', field: fieldsWith(values), values, setValue: () => undefined }));
    expect(run).toContain('Empty: the TPC-H count for SF 0.1, 2 streams (this run: 2)');
  });

  it('shows DOP only for an engine whose driver applies a degree of parallelism (the server says so)', () => {
    const values = form.defaults();
    const render = (engine: 'sqlite' | 'postgresql') => renderToStaticMarkup(createElement(TprochRunOptions, { engine, field: fieldsWith(values), values, setValue: () => undefined }));
    setKnownCapabilities({ version: 't', node: 'v', cpus: 1, generator: { active: 'typescript' }, engines: [
      { engine: 'sqlite', displayName: 'SQLite', available: true, library: 'x', workloads: ['tproch'], workloadFeatures: { tproch: { dop: false } } },
      { engine: 'postgresql', displayName: 'PostgreSQL', available: true, library: 'x', workloads: ['tproch'], workloadFeatures: { tproch: { dop: true } } },
    ] });
    expect(render('sqlite')).not.toContain('id="f-tproch-dop"');
    expect(render('postgresql')).toContain('id="f-tproch-dop"');
    setKnownCapabilities(undefined);
  });
});
