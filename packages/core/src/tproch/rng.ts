/**
 * dbgen's random numbers: Park & Miller's "minimum standard" generator
 * (x' = 16807·x mod 2^31−1), one stream per column, each stream starting from
 * a fixed seed. After every row dbgen moves each stream of the table to a
 * fixed per-row budget of draws (its "boundary"), so row r of a table starts
 * at seed·16807^((r−1)·boundary): any range of rows can be generated on its
 * own by jumping the streams there (what dbgen's -C/-S parallel mode does).
 *
 * Facts (multiplier, modulus, seeds, boundaries, UnifInt's double arithmetic)
 * from dbgen's rnd.c/rnd.h/speed_seed.c; the code is ours.
 */

export const PM_MULTIPLIER = 16807;
export const PM_MODULUS = 2147483647;

/**
 * The next Park-Miller value: 16807·x mod 2^31−1, without a floating modulo
 * (2^31 ≡ 1 mod 2^31−1, so the high part folds onto the low part).
 */
export function pmNext(x: number): number {
  const p = x * PM_MULTIPLIER;
  const hi = Math.floor(p * 4.656612873077393e-10); // p / 2^31, exact
  const r = hi + (p - hi * 2147483648);
  return r >= PM_MODULUS ? r - PM_MODULUS : r;
}

/** (a·b) mod 2^31−1 exactly in doubles (a, b < 2^31). */
export function mulmod(a: number, b: number): number {
  const bHi = Math.floor(b / 65536);
  const bLo = b - bHi * 65536;
  // a·bHi < 2^46, reduced, ·65536 < 2^47: all exact.
  const hi = ((a * bHi) % PM_MODULUS) * 65536;
  return (hi + a * bLo) % PM_MODULUS;
}

/** 16807^n mod 2^31−1. */
export function pmPower(n: number): number {
  let result = 1;
  let mult = PM_MULTIPLIER;
  while (n > 0) {
    if (n % 2 === 1) result = mulmod(result, mult);
    n = Math.floor(n / 2);
    mult = mulmod(mult, mult);
  }
  return result;
}

/** The seed after n draws from `seed` (dbgen NthElement). */
export function advanceSeed(seed: number, n: number): number {
  return n <= 0 ? seed : mulmod(seed, pmPower(n));
}

/** Table a stream belongs to (dbgen's table numbers matter only as groups here). */
export type TprochStreamTable = 'part' | 'psupp' | 'supp' | 'cust' | 'order' | 'line' | 'nation' | 'region' | 'none';

/** Stream indexes (dbgen *_SD). */
export const SD = {
  P_MFG: 0,
  P_BRND: 1,
  P_TYPE: 2,
  P_SIZE: 3,
  P_CNTR: 4,
  TEXT_POOL: 5,
  P_CMNT: 6,
  PS_QTY: 7,
  PS_SCST: 8,
  PS_CMNT: 9,
  O_SUPP: 10,
  O_CLRK: 11,
  O_CMNT: 12,
  O_ODATE: 13,
  L_QTY: 14,
  L_DCNT: 15,
  L_TAX: 16,
  L_SHIP: 17,
  L_SMODE: 18,
  L_PKEY: 19,
  L_SKEY: 20,
  L_SDTE: 21,
  L_CDTE: 22,
  L_RDTE: 23,
  L_RFLG: 24,
  L_CMNT: 25,
  C_ADDR: 26,
  C_NTRG: 27,
  C_PHNE: 28,
  C_ABAL: 29,
  C_MSEG: 30,
  C_CMNT: 31,
  S_ADDR: 32,
  S_NTRG: 33,
  S_PHNE: 34,
  S_ABAL: 35,
  S_CMNT: 36,
  P_NAME: 37,
  O_PRIO: 38,
  HVAR: 39,
  O_CKEY: 40,
  N_CMNT: 41,
  R_CMNT: 42,
  O_LCNT: 43,
  BBB_JNK: 44,
  BBB_TYPE: 45,
  BBB_CMNT: 46,
  BBB_OFFSET: 47,
} as const;

export const STREAM_COUNT = 48;

/** [table, initial seed, draws per row] per stream, as dbgen's Seed[] table. */
export const TPROCH_STREAMS: readonly (readonly [TprochStreamTable, number, number])[] = [
  ['part', 1, 1],
  ['part', 46831694, 1],
  ['part', 1841581359, 1],
  ['part', 1193163244, 1],
  ['part', 727633698, 1],
  ['none', 933588178, 1],
  ['part', 804159733, 2],
  ['psupp', 1671059989, 4],
  ['psupp', 1051288424, 4],
  ['psupp', 1961692154, 8],
  ['order', 1227283347, 1],
  ['order', 1171034773, 1],
  ['order', 276090261, 2],
  ['order', 1066728069, 1],
  ['line', 209208115, 7],
  ['line', 554590007, 7],
  ['line', 721958466, 7],
  ['line', 1371272478, 7],
  ['line', 675466456, 7],
  ['line', 1808217256, 7],
  ['line', 2095021727, 7],
  ['line', 1769349045, 7],
  ['line', 904914315, 7],
  ['line', 373135028, 7],
  ['line', 717419739, 7],
  ['line', 1095462486, 14],
  ['cust', 881155353, 9],
  ['cust', 1489529863, 1],
  ['cust', 1521138112, 3],
  ['cust', 298370230, 1],
  ['cust', 1140279430, 1],
  ['cust', 1335826707, 2],
  ['supp', 706178559, 9],
  ['supp', 110356601, 1],
  ['supp', 884434366, 3],
  ['supp', 962338209, 1],
  ['supp', 1341315363, 2],
  ['part', 709314158, 92],
  ['order', 591449447, 1],
  ['line', 431918286, 1],
  ['order', 851767375, 1],
  ['nation', 606179079, 2],
  ['region', 1500869201, 2],
  ['order', 1434868289, 1],
  ['supp', 263032577, 1],
  ['supp', 753643799, 1],
  ['supp', 202794285, 1],
  ['supp', 715851524, 1],
];

/**
 * The column streams of one row group (a table and its child), positioned at
 * a row. `start(row)` jumps every stream to the row's start; `nextRow()`
 * moves them to the next row's start, whatever the row drew.
 */
export class TprochStreams {
  /** Current value per stream (the draws of the row change these). */
  readonly v: Float64Array = new Float64Array(STREAM_COUNT);
  private readonly rowStart: Float64Array = new Float64Array(STREAM_COUNT);
  private readonly perRow: Float64Array = new Float64Array(STREAM_COUNT);

  constructor(readonly streams: readonly number[]) {
    for (const s of streams) this.perRow[s] = pmPower(TPROCH_STREAMS[s]![2]);
  }

  /** Position stream s at the start of 0-based row `rowsBefore` (rows before it in the table). */
  seek(s: number, rowsBefore: number): void {
    const [, seed, boundary] = TPROCH_STREAMS[s]!;
    this.rowStart[s] = advanceSeed(seed, rowsBefore * boundary);
    this.v[s] = this.rowStart[s]!;
  }

  seekAll(rowsBefore: number): void {
    for (const s of this.streams) this.seek(s, rowsBefore);
  }

  nextRow(): void {
    for (const s of this.streams) {
      const next = mulmod(this.rowStart[s]!, this.perRow[s]!);
      this.rowStart[s] = next;
      this.v[s] = next;
    }
  }

  /**
   * dbgen UnifInt: the next value of stream s mapped to [lo, hi] through
   * doubles: lo + trunc(x / (2^31−1) · (hi − lo + 1)).
   */
  unif(s: number, lo: number, hi: number): number {
    const x = pmNext(this.v[s]!);
    this.v[s] = x;
    return lo + Math.trunc((x / PM_MODULUS) * (hi - lo + 1));
  }

  /**
   * dbgen's draw for a_rnd's characters: UnifInt(0, 2^31−1), whose range
   * (hi − lo + 1) overflows int32 to −2^31 in dbgen, so the value is
   * trunc(x / (2^31−1) · −2^31) (≤ 0); a_rnd takes its low 6-bit groups.
   */
  unifAlnum(s: number): number {
    const x = pmNext(this.v[s]!);
    this.v[s] = x;
    return Math.trunc((x / PM_MODULUS) * -2147483648);
  }
}

/** Streams by row group (dbgen row_stop: a table and its child table). */
export const TPROCH_GROUP_STREAMS = {
  part: [SD.P_MFG, SD.P_BRND, SD.P_TYPE, SD.P_SIZE, SD.P_CNTR, SD.P_CMNT, SD.P_NAME, SD.PS_QTY, SD.PS_SCST, SD.PS_CMNT],
  supplier: [SD.S_ADDR, SD.S_NTRG, SD.S_PHNE, SD.S_ABAL, SD.S_CMNT, SD.BBB_JNK, SD.BBB_TYPE, SD.BBB_CMNT, SD.BBB_OFFSET],
  customer: [SD.C_ADDR, SD.C_NTRG, SD.C_PHNE, SD.C_ABAL, SD.C_MSEG, SD.C_CMNT],
  order: [SD.O_CLRK, SD.O_CMNT, SD.O_ODATE, SD.O_PRIO, SD.O_CKEY, SD.O_LCNT],
  line: [SD.L_QTY, SD.L_DCNT, SD.L_TAX, SD.L_SHIP, SD.L_SMODE, SD.L_PKEY, SD.L_SKEY, SD.L_SDTE, SD.L_CDTE, SD.L_RDTE, SD.L_RFLG, SD.L_CMNT],
} as const;
