import { TproccGenerator, type GenContext, type GeneratedTable, type TproccUnit } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';
import type { NativeBinding, TextFormat } from './load.js';

/** The shape of core's TproccGenerator that build workers use. */
export interface UnitGenerator {
  generate(unit: TproccUnit): GeneratedTable[];
}

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

  constructor(
    private readonly binding: NativeBinding,
    private readonly ctx: GenContext,
    private readonly format: TextFormat,
  ) {
    this.nativeCtx = { seed: ctx.seed >>> 0, timestamp: ctx.timestamp };
  }

  generate(unit: TproccUnit): GeneratedTable[] {
    checkUnitKind(unit);
    if (!nativeFits(unit)) {
      this.ts ??= new TproccGenerator(this.ctx, this.format);
      return this.ts.generate(unit);
    }
    return this.binding.generate(unit, this.nativeCtx, this.format);
  }
}
