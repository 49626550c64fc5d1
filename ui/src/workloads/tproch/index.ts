import { TPROCH, parseTprochOptions } from '@sledge/protocol';
import type { WorkloadUi } from '../types.js';
import { tprochBuildWorker } from './build.js';
import { TprochCompareCharts } from './CompareCharts.js';
import { BUILD_FIELDS, REFRESH_FIELDS, RUN_ADVANCED_FIELDS, RUN_FIELDS, TPROCH_FIELDS, TPROCH_LABELS, collectTproch, tproch, tprochDefaults, tprochToForm } from './form.js';
import { configSummary, jobScale, jobVus, planCell, runPlan } from './jobs.js';
import { TprochLiveKpis, tprochDone } from './LiveKpis.js';
import { TPROCH_OPS } from './ops.js';
import { fmtMetric, fmtSec, tprochResult } from './result.js';
import { TprochResultBanner } from './ResultBanner.js';
import { TprochRunCharts } from './RunCharts.js';
import { TprochBuildOptions, TprochRunOptions } from './RunOptions.js';

/** TPROC-H (HammerDB's analytic workload: TPC-H's 22 queries and refresh functions) as the UI shows it. */
export const TPROCH_UI: WorkloadUi = {
  id: TPROCH.id,
  name: TPROCH.display,
  ops: TPROCH_OPS,
  form: {
    key: TPROCH.optionsKey,
    fields: TPROCH_FIELDS,
    field: tproch,
    buildFields: BUILD_FIELDS,
    runFields: [...RUN_FIELDS, ...REFRESH_FIELDS, ...RUN_ADVANCED_FIELDS],
    runAdvancedFields: RUN_ADVANCED_FIELDS,
    defaults: tprochDefaults,
    collect: collectTproch,
    toForm: tprochToForm,
    labels: TPROCH_LABELS,
    parse: (options, path) => parseTprochOptions(options, path),
  },
  resultColumns: [
    { key: 'geomean', title: 'Geomean (s)', value: (j) => tprochResult(j)?.geomean, format: (v) => fmtSec(v), lowerIsBetter: true },
    { key: 'qphh', title: 'Composite score', value: (j) => tprochResult(j)?.qphh, format: (v) => fmtMetric(v) },
  ],
  // No engine transaction counter: the Compare page draws query ratios instead.
  counters: [],
  planCell,
  planTitle: 'Test',
  outcome: (j) => {
    const r = tprochResult(j);
    return r ? `geomean ${fmtSec(r.geomean)} s, ${r.elapsedSeconds.toFixed(1)} s elapsed${r.errors ? `, ${r.errors} failed` : ''}` : undefined;
  },
  summary: (job) => configSummary(job),
  jobVus,
  jobScale,
  scaleTitle: 'Scale factor',
  plannedText: () => undefined,
  runPlan,
  refreshSec: () => 10,
  buildWorker: tprochBuildWorker,
  RunOptions: TprochRunOptions,
  BuildOptions: TprochBuildOptions,
  runDone: (live) => {
    const d = tprochDone(live);
    return { done: d.planned ? Math.min(1, d.finished / d.planned) : 0, text: `${d.finished} of ${d.planned} queries done` };
  },
  ResultBanner: TprochResultBanner,
  LiveKpis: TprochLiveKpis,
  RunCharts: TprochRunCharts,
  CompareCharts: TprochCompareCharts,
};
