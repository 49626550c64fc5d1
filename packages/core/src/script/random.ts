import { Rng } from '../random.js';
import type { ScriptRandom } from './dists.js';

/** A script client's uniform source from core's seedable Rng: 53 bits from two draws. */
export function scriptRandom(seed: number): ScriptRandom {
  const rng = new Rng(seed);
  return { uniform: () => ((rng.next() >>> 5) * 67108864 + (rng.next() >>> 6)) / 9007199254740992 };
}
