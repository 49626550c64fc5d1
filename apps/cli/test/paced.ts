import { TX_TYPES } from '@sledge/protocol';

/**
 * Paced TPROC-C load for the CLI tests whose subject is not the load level
 * (replicas, CH-benCHmark's mix): each VU keys and thinks around every
 * transaction (tprocc.keyAndThink with a shortened tprocc.keyThink table,
 * TPC-C 5.2.5), 0.02 s keying and 0.05 s mean thinking for every type. That is
 * about 10-12 transactions a second per VU instead of hundreds, so NOPM > 0
 * within a few seconds, while a paced VU keeps its session open and a stop
 * wakes it at once.
 *
 * Why: the slow test stage shares a 2-core CI machine, and a flat-out VU costs
 * a core's worth of client and database CPU that these tests do not need (their
 * assertions are on placement, counts, identities, frames and timelines, not on
 * rates). Flat-out load stays covered elsewhere (the native VU, PostgreSQL,
 * MariaDB and SQLite run tests in server/test).
 */
const KEYING_SEC = 0.02;
const THINK_MEAN_SEC = 0.05;

/** The tprocc options of a paced run (spread into a job's tprocc). */
export const PACED = {
  keyAndThink: true,
  keyThink: Object.fromEntries(TX_TYPES.map((t) => [t, { keyingSec: KEYING_SEC, thinkMeanSec: THINK_MEAN_SEC }])),
} as const;

/** The same on the CLI: `sledge run ... --keyandthink --key-think neworder=0.02:0.05,...`. */
export const PACED_FLAGS = ['--keyandthink', '--key-think', TX_TYPES.map((t) => `${t}=${KEYING_SEC}:${THINK_MEAN_SEC}`).join(',')];
