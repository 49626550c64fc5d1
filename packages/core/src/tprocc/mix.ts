import { DEFAULT_MIX, TX_TYPES, type TproccMix, type TxType } from '@sledge/protocol';
import type { Rng } from '../random.js';

/**
 * The transaction mix as a cumulative table. HammerDB draws RandomNumber(1,23):
 * <=10 new order, <=20 payment, 21 delivery, 22 stock level, 23 order status.
 * Custom weights keep the same shape: RandomNumber(1, Σweights) over the
 * cumulative bounds in TX_TYPES order.
 */
export class Mix {
  private readonly bounds: number[] = [];
  private readonly types: TxType[] = [];
  readonly total: number;

  constructor(weights: TproccMix = DEFAULT_MIX) {
    let acc = 0;
    for (const t of TX_TYPES) {
      const w = weights[t];
      if (w > 0) {
        acc += w;
        this.bounds.push(acc);
        this.types.push(t);
      }
    }
    if (acc <= 0) throw new RangeError('mix weights must sum to more than 0');
    this.total = acc;
  }

  next(rng: Rng): TxType {
    const c = rng.int(1, this.total);
    const b = this.bounds;
    for (let i = 0; i < b.length; i++) if (c <= b[i]!) return this.types[i]!;
    return this.types[this.types.length - 1]!;
  }

  /** Expected share of each type, 0..1. */
  shares(): Record<TxType, number> {
    const out = Object.fromEntries(TX_TYPES.map((t) => [t, 0])) as Record<TxType, number>;
    let prev = 0;
    this.types.forEach((t, i) => {
      out[t] = (this.bounds[i]! - prev) / this.total;
      prev = this.bounds[i]!;
    });
    return out;
  }
}
