import { parseTproccOptions, TPROCC } from '@sledge/protocol';
import { runInfo } from '../../util/runProgress.js';
import type { WorkloadUi } from '../types.js';
import { tproccBuildWorker } from './build.js';
import { BUILD_FIELDS, KEY_THINK_FIELDS, RUN_ADVANCED_FIELDS, RUN_FIELDS, MIX_FIELDS, SHAPE_FIELDS, TPROCC_FIELDS, TPROCC_LABELS, collectTprocc, tprocc, tproccDefaults, tproccSchemaFields, tproccToForm } from './form.js';
import { configSummary, jobVus, jobWarehouses, planCell, plannedText, refreshSec, runPlan } from './jobs.js';
import { TproccProfiles } from './Profiles.js';
import { TproccLiveKpis } from './LiveKpis.js';
import { TPROCC_OPS } from './ops.js';
import { tproccResult } from './result.js';
import { TproccResultBanner } from './ResultBanner.js';
import { TproccRunCharts } from './RunCharts.js';
import { TproccRunOptions } from './RunOptions.js';

/** TPROC-C (HammerDB's OLTP workload) as the UI shows it. */
export const TPROCC_UI: WorkloadUi = {
  id: TPROCC.id,
  name: TPROCC.display,
  ops: TPROCC_OPS,
  form: {
    key: TPROCC.optionsKey,
    fields: TPROCC_FIELDS,
    field: tprocc,
    buildFields: BUILD_FIELDS,
    runFields: [...RUN_FIELDS, ...RUN_ADVANCED_FIELDS, ...MIX_FIELDS, ...KEY_THINK_FIELDS, ...SHAPE_FIELDS],
    runAdvancedFields: RUN_ADVANCED_FIELDS,
    defaults: tproccDefaults,
    collect: collectTprocc,
    toForm: tproccToForm,
    labels: TPROCC_LABELS,
    parse: parseTproccOptions,
    schemaFields: tproccSchemaFields,
  },
  resultColumns: [
    { key: 'nopm', title: 'NOPM', value: (j) => tproccResult(j)?.nopm },
    { key: 'tpm', title: 'TPM', value: (j) => tproccResult(j)?.tpm },
  ],
  counters: [
    { key: 'nopm', title: 'NOPM', value: (s) => s.nopm },
    { key: 'tpm', title: 'TPM', value: (s) => s.tpm },
  ],
  planCell,
  planTitle: 'Rampup + measured (min)',
  outcome: (j) => {
    const r = tproccResult(j);
    return r ? `${r.measuredSeconds} s measured` : undefined;
  },
  summary: (job, live) => configSummary(job, live ? runInfo(live.metrics)?.warehouses : undefined),
  jobVus,
  jobScale: jobWarehouses,
  scaleTitle: 'Warehouses',
  plannedText,
  runPlan,
  refreshSec,
  buildWorker: tproccBuildWorker,
  RunOptions: TproccRunOptions,
  ResultBanner: TproccResultBanner,
  LiveKpis: TproccLiveKpis,
  RunCharts: TproccRunCharts,
  Profiles: TproccProfiles,
};
