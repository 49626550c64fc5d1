import { Rng, streamKey } from '../random.js';
import { rowOut, type BulkFormat, type Value } from '../bulk/encode.js';
import { alphaString, decimal } from '../tprocc/rules.js';
import type { ChbenchTable } from './columns.js';
import { CHBENCH_NATIONS, CHBENCH_REGIONS, CHBENCH_SUPPLIERS } from './nations.js';

/**
 * A unit of CH-benCHmark data. Each table is one unit with its own PRNG
 * stream (seed, table), so the rows do not depend on which build worker
 * makes them or in which order.
 */
export type ChbenchUnit = { kind: ChbenchTable };

export interface ChbenchGenContext {
  seed: number;
}

export interface ChbenchGeneratedTable {
  table: ChbenchTable;
  rows: number;
  /** pg-text/csv: the encoded rows; tuples: arrays of values in CHBENCH_COLUMNS order. */
  data: string | Value[][];
}

/** Stream tags, apart from TPROC-C's (tprocc/constants.ts TAG). */
const TAG = { region: 40, nation: 41, supplier: 42 } as const;

/** Every unit of the three tables, in load order (REGION, NATION, SUPPLIER: referenced before referencing). */
export function chbenchUnits(): ChbenchUnit[] {
  return [{ kind: 'region' }, { kind: 'nation' }, { kind: 'supplier' }];
}

/**
 * Rows of REGION, NATION and SUPPLIER in TPROC-C's bulk formats.
 *
 * Text columns are TPC-C a-strings (tprocc/rules.ts alphaString) of the
 * lengths TPC-H gives the same columns (clause 4.2.3): r_comment 31-115,
 * n_comment 31-114, su_address 10-40, su_comment 25-100. SUPPLIER follows
 * TPC-H's rules on CH-benCHmark's keys: su_suppkey 0..9999 (every value of
 * (s_w_id * s_i_id) mod 10000 has its supplier), su_name "Supplier#" and the
 * key in 9 digits, su_nationkey uniform over the 62 nations, su_phone
 * "<10 + the nation's position>-ddd-ddd-dddd", su_acctbal uniform in
 * [-999.99, 9999.99]. docs/chbench.md says where each rule comes from.
 */
export class ChbenchGenerator {
  constructor(
    private readonly ctx: ChbenchGenContext,
    private readonly format: BulkFormat,
  ) {}

  generate(unit: ChbenchUnit): ChbenchGeneratedTable[] {
    switch (unit.kind) {
      case 'region':
        return [this.regions()];
      case 'nation':
        return [this.nations()];
      case 'supplier':
        return [this.suppliers()];
    }
  }

  private rng(table: ChbenchTable): Rng {
    return new Rng(streamKey(this.ctx.seed, TAG[table]));
  }

  private regions(): ChbenchGeneratedTable {
    const rng = this.rng('region');
    const o = rowOut(this.format);
    for (const r of CHBENCH_REGIONS) o.row([r.key, r.name, alphaString(rng, 31, 115)]);
    return { table: 'region', rows: o.rows, data: o.take() };
  }

  private nations(): ChbenchGeneratedTable {
    const rng = this.rng('nation');
    const o = rowOut(this.format);
    for (const n of CHBENCH_NATIONS) o.row([n.key, n.name, n.region, alphaString(rng, 31, 114)]);
    return { table: 'nation', rows: o.rows, data: o.take() };
  }

  private suppliers(): ChbenchGeneratedTable {
    const rng = this.rng('supplier');
    const o = rowOut(this.format);
    const v: Value[] = new Array<Value>(7);
    for (let k = 0; k < CHBENCH_SUPPLIERS; k++) {
      const n = rng.int(0, CHBENCH_NATIONS.length - 1);
      v[0] = k;
      v[1] = `Supplier#${String(k).padStart(9, '0')}`;
      v[2] = alphaString(rng, 10, 40);
      v[3] = CHBENCH_NATIONS[n]!.key;
      v[4] = `${10 + n}-${rng.int(100, 999)}-${rng.int(100, 999)}-${rng.int(1000, 9999)}`;
      v[5] = decimal(rng.int(-99999, 999999), 2);
      v[6] = alphaString(rng, 25, 100);
      o.row(v);
    }
    return { table: 'supplier', rows: o.rows, data: o.take() };
  }
}
