import { useMemo, useState } from 'react';
import type { StepResult } from '@sledge/protocol';
import type { LiveJob } from '../../live/jobState.js';
import { EChart } from '../../charts/EChart.js';
import { paletteFor } from '../../charts/options/palette.js';
import { arrivalOption, stepLatencyOption, stepsOption, type ArrivalSample } from '../../charts/options/shapes.js';
import type { TimeRange } from '../../charts/options/types.js';
import { useTheme } from '../../theme.js';
import { TPROCC_OPS } from './ops.js';

type ShapeData = { kind?: string } & Record<string, unknown>;

/** The run's shape samples (metric kind `shape`), live or from the store. */
function shapeSamples(live: LiveJob): { ts: number; data: ShapeData }[] {
  return (live.metrics['shape'] ?? []) as { ts: number; data: ShapeData }[];
}

/** Steps: from the result once there is one, else those finished so far (live). */
function stepsOf(live: LiveJob): StepResult[] {
  const r = live.job.result as { steps?: StepResult[] } | null | undefined;
  if (r?.steps?.length) return r.steps;
  return shapeSamples(live)
    .filter((s) => s.data.kind === 'step')
    .map((s) => s.data as unknown as StepResult);
}

/**
 * Run shapes' charts: step loads (NOPM/TPM per step with its VUs, and each
 * step's latency per transaction) and arrival-rate mode (target vs achieved
 * rate, sessions in use, dropped arrivals). Nothing when the run has neither.
 */
export function ShapeCharts({ live, tpmLabel, range, group }: { live: LiveJob; tpmLabel: string; range: TimeRange | undefined; group: string }) {
  const palette = paletteFor(useTheme());
  const [pct, setPct] = useState<'p50' | 'p95' | 'p99'>('p95');
  const steps = stepsOf(live);
  const samples = shapeSamples(live);
  const arrival = useMemo(() => samples.filter((s) => s.data.kind === 'arrival').map((s) => ({ ts: s.ts, ...(s.data as unknown as Omit<ArrivalSample, 'ts'>) })), [samples]);
  const stepsOpt = useMemo(() => stepsOption({ steps, tpmLabel, palette }), [steps, tpmLabel, palette]);
  const latOpt = useMemo(() => stepLatencyOption({ steps, ops: TPROCC_OPS, pct, palette }), [steps, pct, palette]);
  const arrOpt = useMemo(() => arrivalOption({ samples: arrival, range, palette }), [arrival, range, palette]);
  const ar = (live.job.result as { arrival?: { targetRate: number; achievedRate: number; sessionsUsed: number; maxSessions: number; dropped: number; scheduled: number } } | null | undefined)?.arrival;
  const stepPlan = samples.filter((s) => s.data.kind === 'step-start').length;
  return (
    <>
      {steps.length > 0 || stepPlan > 0 ? (
        <>
          <section className="card" data-testid="card-steps">
            <div className="card-head">
              <h3>NOPM and TPM per step</h3>
              <span className="muted small" title="Each step's counters are read at its start and end by the run's monitor">
                {steps.length} step{steps.length === 1 ? '' : 's'} done{steps.length ? `: ${steps.map((s) => `${s.vus} VU`).join(', ')}` : ''}
              </span>
            </div>
            <EChart option={stepsOpt} label="NOPM and TPM per step, with the step's virtual users" testId="chart-steps" />
          </section>
          <section className="card" data-testid="card-step-latency">
            <div className="card-head">
              <h3>Latency per step (ms)</h3>
              <span className="preset-buttons">
                {(['p50', 'p95', 'p99'] as const).map((p) => (
                  <button key={p} type="button" className={`small${p === pct ? ' active' : ''}`} aria-pressed={p === pct} onClick={() => setPct(p)}>
                    {p}
                  </button>
                ))}
              </span>
            </div>
            <EChart option={latOpt} label={`${pct} latency per transaction for each step`} testId="chart-step-latency" />
          </section>
        </>
      ) : null}
      {arrival.length > 0 ? (
        <section className="card" data-testid="card-arrival">
          <div className="card-head">
            <h3>Arrival rate (tx/s)</h3>
            <span
              className="muted small"
              title={ar ? `Achieved ${ar.achievedRate} of a target ${ar.targetRate} tx/s over the measured window; at most ${ar.sessionsUsed} of ${ar.maxSessions} sessions busy at once; ${ar.dropped} of ${ar.scheduled} arrivals dropped (every session busy). Latency is measured from each transaction's intended start.` : "Latency is measured from each transaction's intended start (no coordinated omission)"}
            >
              {ar ? `${ar.achievedRate}/${ar.targetRate} tx/s · ${ar.sessionsUsed}/${ar.maxSessions} sessions · ${ar.dropped} dropped` : 'latency from the intended start'}
            </span>
          </div>
          <EChart option={arrOpt} group={group} label="Target and achieved transactions per second, sessions in use and dropped arrivals" testId="chart-arrival" />
        </section>
      ) : null}
    </>
  );
}
