import { CHBENCH, TPROCC } from '@sledge/protocol';
import { runInfo } from '../../util/runProgress.js';
import type { WorkloadUi } from '../types.js';
import { tproccBuildWorker } from '../tprocc/build.js';
import { jobVus, jobWarehouses, planCell, plannedText, refreshSec, runPlan } from '../tprocc/jobs.js';
import { TPROCC_OPS } from '../tprocc/ops.js';
import { tproccResult } from '../tprocc/result.js';
import { tproccSchemaFields } from '../tprocc/form.js';
import { ANALYTIC_FIELDS, BUILD_FIELDS, CHBENCH_FIELDS, CHBENCH_LABELS, CHBENCH_PART, KEY_THINK_FIELDS, MIX_FIELDS, RUN_ADVANCED_FIELDS, RUN_FIELDS, chbenchDefaults, chbenchEngineDefaults, chbenchField, chbenchToForm, collectChbench, parseChbench } from './form.js';
import { configSummary } from './jobs.js';
import { ChbenchLiveKpis } from './LiveKpis.js';
import { chbenchAnalytic, fmtPerHour } from './result.js';
import { ChbenchResultBanner } from './ResultBanner.js';
import { ChbenchRunCharts } from './RunCharts.js';
import { ChbenchRunOptions } from './RunOptions.js';

/**
 * CH-benCHmark (TPROC-C's transactions and 22 analytic queries in one timed
 * window) as the UI shows it: TPROC-C's build, form, charts and result, with
 * the analytic streams beside them. Builds on ../tprocc one way.
 */
export const CHBENCH_UI: WorkloadUi = {
  id: CHBENCH.id,
  name: CHBENCH.display,
  ops: TPROCC_OPS,
  form: {
    // The transactional options are TPROC-C's, under its key; the analytic ones are the `chbench` part.
    key: TPROCC.optionsKey,
    parts: [CHBENCH_PART],
    fields: CHBENCH_FIELDS,
    field: chbenchField,
    buildFields: BUILD_FIELDS,
    runFields: [...RUN_FIELDS, ...RUN_ADVANCED_FIELDS, ...MIX_FIELDS, ...KEY_THINK_FIELDS, ...ANALYTIC_FIELDS],
    runAdvancedFields: RUN_ADVANCED_FIELDS,
    defaults: chbenchDefaults,
    engineDefaults: chbenchEngineDefaults,
    collect: collectChbench,
    toForm: chbenchToForm,
    labels: CHBENCH_LABELS,
    parse: parseChbench,
    schemaFields: tproccSchemaFields,
  },
  resultColumns: [
    { key: 'nopm', title: 'NOPM', value: (j) => tproccResult(j)?.nopm },
    { key: 'tpm', title: 'TPM', value: (j) => tproccResult(j)?.tpm },
    { key: 'qph', title: 'Queries/h', value: (j) => chbenchAnalytic(j)?.queriesPerHour, format: fmtPerHour },
  ],
  counters: [
    { key: 'nopm', title: 'NOPM', value: (s) => s.nopm },
    { key: 'tpm', title: 'TPM', value: (s) => s.tpm },
  ],
  planCell,
  planTitle: 'Rampup + measured (min)',
  outcome: (j) => {
    const r = tproccResult(j);
    const a = chbenchAnalytic(j);
    return r ? `${r.measuredSeconds} s measured${a ? `, ${fmtPerHour(a.queriesPerHour)} queries/h` : ''}` : undefined;
  },
  summary: (job, live) => configSummary(job, live ? runInfo(live.metrics)?.warehouses : undefined),
  jobVus,
  jobScale: jobWarehouses,
  scaleTitle: 'Warehouses',
  plannedText,
  runPlan,
  refreshSec,
  buildWorker: tproccBuildWorker,
  RunOptions: ChbenchRunOptions,
  ResultBanner: ChbenchResultBanner,
  LiveKpis: ChbenchLiveKpis,
  RunCharts: ChbenchRunCharts,
};
