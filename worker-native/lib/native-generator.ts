import { TproccGenerator, type GenContext, type GeneratedTable, type TproccUnit } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';
import type { NativeBinding, TextFormat } from './load.js';

/** The shape of core's TproccGenerator that build workers use. */
export interface UnitGenerator {
  generate(unit: TproccUnit): GeneratedTable[];
}

export interface GeneratorOptions {
  /**
   * Write each table into Buffers the generator keeps and lends again: a
   * table's data is then valid only until the second generate() call after
   * the one that returned it (a build worker loads one unit while it
   * generates the next). Without it every unit's tables are new memory,
   * which V8 accounts as external and answers with a full garbage
   * collection every few tens of MB (README, "Builds against the engine's
   * bulk load").
   */
  reuseBuffers?: boolean;
}

/** What the addon's generate() returns per table: data is a lent Buffer (its first `length` bytes) or new. */
interface NativeTable {
  table: GeneratedTable['table'];
  rows: number;
  data: Buffer;
  length: number;
}

/** Tables smaller than this are copied by the addon anyway: nothing to lend. */
const MIN_LEND = 64 * 1024;
/** Room a lent Buffer leaves over the table it was sized for (units of one kind vary a little). */
const LEND_HEADROOM = 1.25;

const UNIT_FIELDS: Record<TproccUnit['kind'], readonly string[]> = {
  item: ['from', 'to'],
  warehouse: ['w'],
  stock: ['w', 'from', 'to'],
  district: ['w'],
  customer: ['w', 'd'],
  orders: ['w', 'd'],
};

const isInt32 = (x: unknown): boolean => typeof x === 'number' && Number.isInteger(x) && x >= -2147483648 && x <= 2147483647;

/** Throws SledgeError for a unit no generator knows (core's would return undefined). */
export function checkUnitKind(unit: TproccUnit): void {
  const kind: unknown = (unit as { kind?: unknown } | null)?.kind;
  if (typeof kind !== 'string' || !Object.hasOwn(UNIT_FIELDS, kind)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `unknown TPROC-C unit kind ${JSON.stringify(kind)}: use one of ${Object.keys(UNIT_FIELDS).join(', ')}`, {
      field: 'unit.kind',
    });
  }
}

/** True when every field the unit's kind uses is an int32 (what the addon takes). */
function nativeFits(unit: TproccUnit): boolean {
  const u = unit as unknown as Record<string, unknown>;
  return UNIT_FIELDS[unit.kind].every((f) => isInt32(u[f]));
}

/**
 * Generates pg-text/csv with the addon. Units whose numbers the addon does not
 * take (non-integers, beyond int32) go to core's TproccGenerator, so the bytes
 * are always those of the TypeScript path.
 */
export class NativeGenerator implements UnitGenerator {
  private readonly nativeCtx: { seed: number; timestamp: string };
  private ts: TproccGenerator | undefined;
  /** With reuseBuffers: two sets of lent Buffers (by unit kind, then table position), used in turn. */
  private readonly lent: [Map<string, Buffer[]>, Map<string, Buffer[]>] | undefined;
  private calls = 0;

  constructor(
    private readonly binding: NativeBinding,
    private readonly ctx: GenContext,
    private readonly format: TextFormat,
    o: GeneratorOptions = {},
  ) {
    this.nativeCtx = { seed: ctx.seed >>> 0, timestamp: ctx.timestamp };
    if (o.reuseBuffers) this.lent = [new Map(), new Map()];
  }

  generate(unit: TproccUnit): GeneratedTable[] {
    checkUnitKind(unit);
    if (!nativeFits(unit)) {
      this.ts ??= new TproccGenerator(this.ctx, this.format);
      return this.ts.generate(unit);
    }
    if (!this.lent) return (this.binding.generate(unit, this.nativeCtx, this.format) as NativeTable[]).map((t) => ({ table: t.table, rows: t.rows, data: t.data }));
    const set = this.lent[this.calls++ % 2]!;
    let bufs = set.get(unit.kind);
    if (!bufs) set.set(unit.kind, (bufs = []));
    const out = this.binding.generate(unit, this.nativeCtx, this.format, bufs) as NativeTable[];
    return out.map((t, i) => {
      if (t.data === bufs[i]) return { table: t.table, rows: t.rows, data: t.data.subarray(0, t.length) };
      // Nothing lent yet, or outgrown: lend a Buffer with room to spare from the next unit of this kind on.
      if (t.length >= MIN_LEND) bufs[i] = Buffer.allocUnsafeSlow(Math.ceil(t.length * LEND_HEADROOM));
      return { table: t.table, rows: t.rows, data: t.data };
    });
  }
}
