import Type from 'typebox';
import { SledgeError } from '../errors.js';

/**
 * Step loads (HammerDB's steprun, hammerdb.md §11.2): a schedule of VU counts
 * within one run. Step 1 starts `startAfterMin` minutes after the VUs are
 * released; each later step starts `startAfterMin` minutes after the previous
 * step started, and runs `durationMin` minutes with `vus` virtual users
 * (absolute, not added). Steps must not overlap; before, between and after
 * them every VU idles. The run holds max(vus) VU slots.
 */
export const LoadStep = Type.Object(
  {
    startAfterMin: Type.Number({ minimum: 0, maximum: 10080, description: 'minutes after the previous step started (the first: after the VUs are released)' }),
    durationMin: Type.Number({ exclusiveMinimum: 0, maximum: 10080, description: 'minutes this step runs' }),
    vus: Type.Integer({ minimum: 1, maximum: 10000, description: 'virtual users during this step' }),
  },
  { additionalProperties: false },
);
export type LoadStep = Type.Static<typeof LoadStep>;

export const LoadSteps = Type.Array(LoadStep, {
  minItems: 1,
  maxItems: 64,
  title: 'Step loads',
  description: 'HammerDB steprun as one schedule: [{ startAfterMin, durationMin, vus }]; the whole schedule must fit within rampup + duration',
  'x-group': 'driver',
});

/** Per-transaction latency percentiles of one step (ms). */
export const StepLatency = Type.Object({ p50: Type.Number(), p95: Type.Number(), p99: Type.Number() });

/** One step's figures: the monitor's counters read at the step's start and end, latency from the VUs. */
export const StepResult = Type.Object({
  index: Type.Integer(),
  vus: Type.Integer(),
  startSec: Type.Number({ description: 'seconds after the VUs were released' }),
  endSec: Type.Number(),
  nopm: Type.Integer(),
  tpm: Type.Integer(),
  transactions: Type.Optional(Type.Integer({ description: 'client-side commits + rollbacks in the step' })),
  tps: Type.Optional(Type.Number({ description: 'client-side transactions per second in the step (the script workload\'s figure; its nopm and tpm are 0)' })),
  latency: Type.Record(Type.String(), StepLatency, { description: 'per transaction type: p50/p95/p99 in ms' }),
});
export type StepResult = Type.Static<typeof StepResult>;

/** A step's window in seconds after the VUs are released. */
export interface StepWindow {
  index: number;
  vus: number;
  startSec: number;
  endSec: number;
}

/** The steps as absolute windows (seconds after release). */
export function stepWindows(steps: readonly LoadStep[]): StepWindow[] {
  let start = 0;
  return steps.map((s, i) => {
    start += s.startAfterMin * 60;
    return { index: i + 1, vus: s.vus, startSec: start, endSec: start + s.durationMin * 60 };
  });
}

/** VU slots a schedule needs: the largest step. */
export const stepSlots = (steps: readonly LoadStep[]): number => steps.reduce((m, s) => Math.max(m, s.vus), 0);

/**
 * Checks what the schema cannot: steps do not overlap, and the schedule fits
 * within rampup + duration. Throws a SledgeError naming the field.
 */
export function checkSteps(steps: readonly LoadStep[], rampupMin: number, durationMin: number, prefix = 'tprocc'): void {
  const w = stepWindows(steps);
  for (let i = 1; i < w.length; i++) {
    if (w[i]!.startSec < w[i - 1]!.endSec - 1e-9) {
      throw new SledgeError(
        'SLEDGE_E_VALIDATION',
        `${prefix}.steps[${i}].startAfterMin (${steps[i]!.startAfterMin}) must be at least the previous step's durationMin (${steps[i - 1]!.durationMin}): steps must not overlap`,
        { field: `${prefix}.steps.${i}.startAfterMin` },
      );
    }
  }
  const end = w[w.length - 1]!.endSec / 60;
  const total = rampupMin + durationMin;
  if (end > total + 1e-9) {
    throw new SledgeError(
      'SLEDGE_E_VALIDATION',
      `${prefix}.steps ends at ${+end.toFixed(3)} minutes, after the run's rampup + duration (${+total.toFixed(3)} minutes): shorten the steps or lengthen ${prefix}.duration`,
      { field: `${prefix}.steps` },
    );
  }
}

/**
 * Steps as text, the CLI's and the form's short form: "START:DURATION:VUS"
 * per step, comma separated (minutes, minutes, VUs), e.g. "0:1:2, 1:1:4".
 * A syntax error names `field` and the step.
 */
export function parseStepsText(text: string, field = 'tprocc.steps'): LoadStep[] {
  return text
    .split(',')
    .map((part, i) => {
      const f = part.trim().split(':');
      if (f.length !== 3 || f.some((x) => x.trim() === '' || !Number.isFinite(Number(x)))) {
        throw new SledgeError('SLEDGE_E_VALIDATION', `${field}: step ${i + 1} ${JSON.stringify(part.trim())} must be START_AFTER_MIN:DURATION_MIN:VUS, e.g. "0:1:2, 1:1:4"`, { field });
      }
      return { startAfterMin: Number(f[0]), durationMin: Number(f[1]), vus: Number(f[2]) };
    });
}

/** The short text form of steps (parseStepsText's inverse). */
export const stepsToText = (steps: readonly LoadStep[]): string => steps.map((s) => `${s.startAfterMin}:${s.durationMin}:${s.vus}`).join(', ');
