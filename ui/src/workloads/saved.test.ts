import { describe, expect, it } from 'vitest';
import { parseSavedConfig } from '@sledge/protocol';
import './index.js';
import { CHBENCH_UI } from './chbench/index.js';
import { TPROCC_UI } from './tprocc/index.js';
import { TPROCH_UI } from './tproch/index.js';
import { formOptionsOfSaved, savedOptionLabels, savedOptionsOf } from './saved.js';
import type { WorkloadUi } from './types.js';

/** What the workbench's options() gives: the form's options object with the engine's schema options as `schema` (when the workload has some). */
const formOptions = (w: WorkloadUi, values: Record<string, string | boolean>, schema?: Record<string, unknown>) => ({ ...w.form.collect({ ...w.form.defaults(), ...values }), ...(schema ? { schema } : {}) });

describe('saved configurations in the forms', () => {
  it.each([
    ['tprocc', TPROCC_UI, { vus: '6', duration: '3' }, { partition: true }],
    ['tproch', TPROCH_UI, { scaleFactor: '10', mode: 'throughput' }, undefined],
    ['chbench', CHBENCH_UI, { vus: '4', 'chbench.analyticStreams': '3', 'chbench.dop': '2' }, { storedProcs: true }],
  ] as const)('%s: options saved from the form load back into the same form values and schema options', (id, w, values, schema) => {
    const options = formOptions(w, values, schema);
    const saved = savedOptionsOf(id, w.form, options);
    // What the server keeps is valid for the workload (no key of another shape).
    expect(() => parseSavedConfig({ name: 'x', target: { engine: 'postgresql' }, workload: id, options: saved })).not.toThrow();
    const back = formOptionsOfSaved(id, w.form, saved)!;
    expect(back.schema).toEqual(schema ?? {});
    expect(w.form.toForm(back.options)).toEqual(w.form.toForm(options));
    expect(w.form.toForm(back.options)).toMatchObject(values);
  });

  it("keeps CH-benCHmark's TPROC-C options under options.tprocc and its analytic ones at the top", () => {
    const saved = savedOptionsOf('chbench', CHBENCH_UI.form, formOptions(CHBENCH_UI, { vus: '4', 'chbench.analyticStreams': '3' }, { partition: false }));
    expect(saved).toMatchObject({ analyticStreams: 3, tprocc: { vus: 4, schema: { partition: false } } });
    expect(saved).not.toHaveProperty('vus');
    expect(saved).not.toHaveProperty('chbench');
  });

  it("labels an API error on a saved configuration's option with the form's label", () => {
    expect(savedOptionLabels('tprocc', TPROCC_UI.form)['options.vus']).toBe(TPROCC_UI.form.labels['tprocc.vus']);
    const ch = savedOptionLabels('chbench', CHBENCH_UI.form);
    expect(ch['options.tprocc.vus']).toBe(CHBENCH_UI.form.labels['tprocc.vus']);
    expect(ch['options.analyticStreams']).toBe(CHBENCH_UI.form.labels['chbench.analyticStreams']);
  });

  it('a configuration of a workload the dashboard does not know is not loaded into a form', () => {
    expect(formOptionsOfSaved('pgbench', TPROCC_UI.form, { vus: 2 })).toBeUndefined();
  });
});
