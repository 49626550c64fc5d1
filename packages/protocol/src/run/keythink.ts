import Type from 'typebox';

/**
 * Keying and thinking time of one transaction type (TPC-C 5.2.5): a fixed
 * keying time before the transaction and a thinking time after it drawn from
 * a negative exponential distribution with this mean, truncated at 10x the
 * mean (TPC-C 5.2.5.4 allows that). Seconds; fractions allowed so that a test
 * can shorten the table.
 */
export const KeyThinkTimes = Type.Object(
  {
    keyingSec: Type.Number({ title: 'Keying time (s)', minimum: 0, maximum: 3600 }),
    thinkMeanSec: Type.Number({ title: 'Mean thinking time (s)', minimum: 0, maximum: 3600 }),
  },
  { additionalProperties: false },
);
export type KeyThinkTimes = Type.Static<typeof KeyThinkTimes>;

/** TPC-C's minimum keying times and mean thinking times (5.2.5.7), which HammerDB uses too. */
export const DEFAULT_KEY_THINK = {
  neworder: { keyingSec: 18, thinkMeanSec: 12 },
  payment: { keyingSec: 3, thinkMeanSec: 12 },
  delivery: { keyingSec: 2, thinkMeanSec: 10 },
  stocklevel: { keyingSec: 2, thinkMeanSec: 5 },
  orderstatus: { keyingSec: 2, thinkMeanSec: 5 },
} as const;

const entry = (t: keyof typeof DEFAULT_KEY_THINK) =>
  Type.Object(
    {
      keyingSec: Type.Number({ title: 'Keying time (s)', minimum: 0, maximum: 3600, default: DEFAULT_KEY_THINK[t].keyingSec }),
      thinkMeanSec: Type.Number({ title: 'Mean thinking time (s)', minimum: 0, maximum: 3600, default: DEFAULT_KEY_THINK[t].thinkMeanSec }),
    },
    { additionalProperties: false, default: { ...DEFAULT_KEY_THINK[t] } },
  );

/** The table of keying and thinking times per transaction type (used when keyAndThink is on). */
export const KeyThinkTable = Type.Object(
  {
    neworder: entry('neworder'),
    payment: entry('payment'),
    delivery: entry('delivery'),
    stocklevel: entry('stocklevel'),
    orderstatus: entry('orderstatus'),
  },
  {
    additionalProperties: false,
    title: 'Keying and thinking times',
    description: 'Seconds per transaction type: keying before it, mean of the negative-exponential thinking time after it (TPC-C defaults 18/12, 3/12, 2/10, 2/5, 2/5)',
    'x-group': 'driver',
    default: JSON.parse(JSON.stringify(DEFAULT_KEY_THINK)) as Record<string, unknown>,
  },
);
export type KeyThinkTable = Type.Static<typeof KeyThinkTable>;

/** The TPC-C defaults as a fresh object. */
export const defaultKeyThink = (): KeyThinkTable => JSON.parse(JSON.stringify(DEFAULT_KEY_THINK)) as KeyThinkTable;

/** "neworder=18:12,payment=3:12" (the CLI's --key-think): the named types replaced, the others at their defaults. */
export function parseKeyThinkSpec(spec: string): Partial<KeyThinkTable> {
  const out: Record<string, KeyThinkTimes> = {};
  for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([a-z]+)=([\d.]+):([\d.]+)$/.exec(part);
    if (!m || !(m[1]! in DEFAULT_KEY_THINK)) {
      throw new Error(`"${part}" is not TYPE=KEYING:THINK with TYPE one of ${Object.keys(DEFAULT_KEY_THINK).join(', ')} (e.g. neworder=18:12)`);
    }
    out[m[1]!] = { keyingSec: Number(m[2]), thinkMeanSec: Number(m[3]) };
  }
  return out as Partial<KeyThinkTable>;
}
