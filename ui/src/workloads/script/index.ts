import { SCRIPT } from '@sledge/protocol';
import { plainWorker } from '../../util/progress.js';
import type { WorkloadUi } from '../types.js';
import { BUILD_FIELDS, RUN_ADVANCED_FIELDS, RUN_FIELDS, SCRIPTS_FIELD, SCRIPT_FIELDS, SCRIPT_LABELS, SCRIPT_SLOTS, SHAPE_FIELDS, collectScript, parseScript, scriptDefaults, scriptField, scriptToForm } from './form.js';
import { configSummary, jobScale, jobVus, planCell, plannedText, runPlan, scriptResult } from './jobs.js';
import { ScriptLiveKpis } from './LiveKpis.js';
import { ScriptResultBanner } from './ResultBanner.js';
import { ScriptRunCharts } from './RunCharts.js';
import { ScriptBuildOptions, ScriptRunOptions } from './RunOptions.js';

/**
 * The script workload (pgbench scripts with weights) as the UI shows it: the
 * Run page's script editor, pgbench -i as its build, and per job its stored
 * scripts with each one's counters, latency and errors. Its operations are
 * the job's scripts, so `ops` is empty and the run charts take them from the job.
 */
export const SCRIPT_UI: WorkloadUi = {
  id: SCRIPT.id,
  name: SCRIPT.display,
  ops: [],
  form: {
    key: SCRIPT.optionsKey,
    fields: SCRIPT_FIELDS,
    field: scriptField,
    buildFields: BUILD_FIELDS,
    // The scripts' value, and one slot per script so a job's error at script.scripts[i] is placed at its script.
    runFields: [SCRIPTS_FIELD, ...SCRIPT_SLOTS, ...RUN_FIELDS, ...SHAPE_FIELDS, ...RUN_ADVANCED_FIELDS],
    runAdvancedFields: RUN_ADVANCED_FIELDS,
    defaults: scriptDefaults,
    collect: collectScript,
    toForm: scriptToForm,
    labels: SCRIPT_LABELS,
    parse: parseScript,
  },
  resultColumns: [{ key: 'tps', title: 'TPS', value: (j) => scriptResult(j)?.tps, format: (v) => v.toFixed(1) }],
  counters: [],
  planCell,
  planTitle: 'Rampup + measured (min)',
  outcome: (j) => {
    const r = scriptResult(j);
    return r ? `${r.measuredSeconds} s measured${r.failed ? `, ${r.failed} failed` : ''}` : undefined;
  },
  summary: (job) => configSummary(job),
  jobVus,
  jobScale,
  scaleTitle: 'Scale',
  plannedText,
  runPlan,
  refreshSec: () => 10,
  buildWorker: plainWorker,
  RunOptions: ScriptRunOptions,
  BuildOptions: ScriptBuildOptions,
  ResultBanner: ScriptResultBanner,
  LiveKpis: ScriptLiveKpis,
  RunCharts: ScriptRunCharts,
};
