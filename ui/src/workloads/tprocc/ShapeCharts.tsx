import { useMemo, useState } from 'react';
import type { CapacityProbe, CapacityResult, StepResult } from '@sledge/protocol';
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
export function stepsOf(live: LiveJob): StepResult[] {
  const r = live.job.result as { steps?: StepResult[] } | null | undefined;
  if (r?.steps?.length) return r.steps;
  return shapeSamples(live)
    .filter((s) => s.data.kind === 'step')
    .map((s) => s.data as unknown as StepResult);
}

/** A capacity search's probes: from the result once there is one, else those judged so far (live). */
function probesOf(live: LiveJob): CapacityProbe[] {
  const r = live.job.result as { capacity?: CapacityResult } | null | undefined;
  if (r?.capacity) return r.capacity.probes;
  return shapeSamples(live)
    .filter((s) => s.data.kind === 'capacity')
    .map((s) => s.data as unknown as CapacityProbe);
}

/** Capacity at an SLO: the verdict, the hold's latency per transaction, and a row per probe. */
function CapacityCard({ live }: { live: LiveJob }) {
  const probes = probesOf(live);
  const c = (live.job.result as { capacity?: CapacityResult } | null | undefined)?.capacity;
  if (!probes.length && !c) return null;
  return (
    <section className="card" data-testid="card-capacity">
      <div className="card-head">
        <h3>Capacity at SLO{c ? <span className="mono"> {c.slo}</span> : null}</h3>
        <span className="muted small" data-testid="capacity-verdict" title={c?.reason ?? 'The search runs: each probe holds its rate and is judged against the SLO'}>
          {c ? `${c.rate === null ? 'no rate' : `${c.rate} tx/s`} ${c.held ? 'held' : 'not held'}` : `${probes.length} probe${probes.length === 1 ? '' : 's'} so far`}
        </span>
      </div>
      {c && Object.keys(c.latency).length ? (
        <table className="data compact" data-testid="capacity-latency">
          <thead>
            <tr>
              <th>transaction (hold)</th>
              <th>p50 ms</th>
              <th>p95 ms</th>
              <th>p99 ms</th>
              <th>calls</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(c.latency).map(([op, l]) => (
              <tr key={op}>
                <td>{op}</td>
                <td>{l.p50}</td>
                <td>{l.p95}</td>
                <td>{l.p99}</td>
                <td>{l.calls}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <table className="data compact" data-testid="capacity-probes">
        <thead>
          <tr>
            <th>#</th>
            <th>phase</th>
            <th>rate /s</th>
            <th>achieved /s</th>
            <th>dropped</th>
            <th>neworder p95 ms</th>
            <th>verdict</th>
          </tr>
        </thead>
        <tbody>
          {probes.map((p) => (
            <tr key={p.index} title={p.checks.map((x) => x.message).join('\n')}>
              <td>{p.index}</td>
              <td>{p.phase}</td>
              <td>{p.rate}</td>
              <td>{p.achievedRate}</td>
              <td>
                {p.dropped}/{p.scheduled}
              </td>
              <td>{p.latency['neworder']?.p95 ?? ''}</td>
              <td className={p.passed ? 'good' : 'bad'}>{p.passed ? 'pass' : 'fail'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
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
      <CapacityCard live={live} />
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
