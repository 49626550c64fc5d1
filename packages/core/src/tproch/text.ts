/**
 * dbgen's comment text: a pool of 300 MiB of pseudo-English built once from
 * the grammar distributions with stream 5 (seed 933588178), sentences joined
 * by one space and the last one cut at the pool's end. A comment of average
 * length L is the pool's bytes at a random offset in [0, POOL − max] of a
 * random length in [min, max] (min = trunc(0.4·L), max = trunc(1.6·L)).
 *
 * The pool is built once per process (or handed in from another thread or
 * from the native addon via `setTprochTextPool`), in a SharedArrayBuffer so
 * worker threads can share it without copying.
 *
 * Facts (grammar, picks, spacing and punctuation rules, pool size) from
 * dbgen's text.c and dists.dss; the code is ours.
 */
import { SledgeError } from '@sledge/protocol';
import { TPROCH_DISTS, type TprochDist } from './dists.js';
import { PM_MODULUS, TPROCH_STREAMS, SD, pmNext } from './rng.js';

export const TPROCH_TEXT_POOL_SIZE = 300 * 1024 * 1024;

/** A distribution ready for fast picks: draw j in 1..total, member lut[j], its bytes at off[m]..off[m+1]. */
interface FastDist {
  total: number;
  lut: Int32Array;
  bytes: Uint8Array;
  off: Int32Array;
}

function fastDist(d: TprochDist): FastDist {
  const lut = new Int32Array(d.total + 1);
  let i = 0;
  for (let j = 1; j <= d.total; j++) {
    while (d.cumulative[i]! < j) i++;
    lut[j] = i;
  }
  const joined = d.members.join('');
  const bytes = new Uint8Array(joined.length);
  for (let k = 0; k < joined.length; k++) bytes[k] = joined.charCodeAt(k);
  const off = new Int32Array(d.members.length + 1);
  for (let m = 0; m < d.members.length; m++) off[m + 1] = off[m]! + d.members[m]!.length;
  return { total: d.total, lut, bytes, off };
}

const SPACE = 0x20;
const COMMA = 0x2c;
/** Longest sentence the grammar can make is far below this. */
const SENTENCE_MAX = 512;

/**
 * Builds the pool sequentially into `out` (TPROCH_TEXT_POOL_SIZE bytes):
 * sentences from the grammar, each followed by one space, the last cut at
 * the end. Sentence rules (dbgen txt_sentence/txt_np/txt_vp): a noun or verb
 * phrase is its words each followed by a space (a "J," adjective by ", "); a
 * prepositional phrase is a preposition, " the " and a noun phrase; the
 * terminator replaces the space before it.
 */
export function buildTprochTextPool(out: Uint8Array): void {
  checkPool(out);
  poolFiller(out)(Infinity);
}

/**
 * The same, yielding to the event loop every `chunk` bytes (a TypeScript
 * build takes seconds; test runners and servers stay responsive meanwhile).
 */
export async function buildTprochTextPoolAsync(out: Uint8Array, chunk = 8 * 1024 * 1024): Promise<void> {
  checkPool(out);
  const fill = poolFiller(out);
  for (let limit = chunk; !fill(limit); limit += chunk) await new Promise((r) => setTimeout(r, 0));
}

function checkPool(out: Uint8Array): void {
  if (out.length !== TPROCH_TEXT_POOL_SIZE) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `the TPROC-H text pool is ${TPROCH_TEXT_POOL_SIZE} bytes, not ${out.length}`, { field: 'pool' });
  }
}

/** A resumable pool build: fill(limit) writes sentences up to about `limit` bytes; true once the pool is full. */
function poolFiller(out: Uint8Array): (limit: number) => boolean {
  const d = TPROCH_DISTS;
  const grammar = fastDist(d.grammar);
  const np = fastDist(d.np);
  const vp = fastDist(d.vp);
  const nouns = fastDist(d.nouns);
  const verbs = fastDist(d.verbs);
  const adjectives = fastDist(d.adjectives);
  const adverbs = fastDist(d.adverbs);
  const auxiliaries = fastDist(d.auxillaries);
  const prepositions = fastDist(d.prepositions);
  const terminators = fastDist(d.terminators);

  let seed = TPROCH_STREAMS[SD.TEXT_POOL]![1];
  const pickIndex = (f: FastDist): number => {
    seed = pmNext(seed);
    return f.lut[1 + Math.trunc((seed / PM_MODULUS) * f.total)]!;
  };
  // Sentences are written to `buf` at `pos`: straight into the pool, or into
  // a scratch buffer for the last one, which may be cut.
  let buf = out;
  let pos = 0;
  const word = (f: FastDist): void => {
    const m = pickIndex(f);
    const bytes = f.bytes;
    for (let k = f.off[m]!, e = f.off[m + 1]!; k < e; k++) buf[pos++] = bytes[k]!;
  };
  // np forms: N | J N | J, J N | D J N
  const nounPhrase = (): void => {
    switch (pickIndex(np)) {
      case 0:
        break;
      case 1:
        word(adjectives);
        buf[pos++] = SPACE;
        break;
      case 2:
        word(adjectives);
        buf[pos++] = COMMA;
        buf[pos++] = SPACE;
        word(adjectives);
        buf[pos++] = SPACE;
        break;
      default:
        word(adverbs);
        buf[pos++] = SPACE;
        word(adjectives);
        buf[pos++] = SPACE;
    }
    word(nouns);
    buf[pos++] = SPACE;
  };
  // vp forms: V | X V | V D | X V D
  const verbPhrase = (): void => {
    const form = pickIndex(vp);
    if (form === 1 || form === 3) {
      word(auxiliaries);
      buf[pos++] = SPACE;
    }
    word(verbs);
    buf[pos++] = SPACE;
    if (form >= 2) {
      word(adverbs);
      buf[pos++] = SPACE;
    }
  };
  const prepPhrase = (): void => {
    word(prepositions);
    buf[pos++] = SPACE;
    buf[pos++] = 0x74; // t
    buf[pos++] = 0x68; // h
    buf[pos++] = 0x65; // e
    buf[pos++] = SPACE;
    nounPhrase();
  };
  // grammar: N V T | N V P T | N V N T | N P V N T | N P V P T
  const sentence = (): void => {
    const form = pickIndex(grammar);
    nounPhrase();
    if (form >= 3) prepPhrase();
    verbPhrase();
    if (form === 1 || form === 4) prepPhrase();
    else if (form === 2 || form === 3) nounPhrase();
    pos--; // the terminator abuts the last word
    word(terminators);
  };

  const scratch = new Uint8Array(SENTENCE_MAX);
  return (limit: number): boolean => {
    const stop = Math.min(limit, TPROCH_TEXT_POOL_SIZE - SENTENCE_MAX);
    while (pos < stop) {
      sentence();
      out[pos++] = SPACE;
    }
    if (limit < TPROCH_TEXT_POOL_SIZE) return false;
    // The last sentences go through a scratch buffer: the very last one is cut at the end.
    let at = pos;
    buf = scratch;
    while (at < TPROCH_TEXT_POOL_SIZE) {
      pos = 0;
      sentence();
      const room = TPROCH_TEXT_POOL_SIZE - at;
      if (room >= pos + 1) {
        out.set(scratch.subarray(0, pos), at);
        out[at + pos] = SPACE;
        at += pos + 1;
      } else {
        out.set(scratch.subarray(0, room), at);
        at = TPROCH_TEXT_POOL_SIZE;
      }
    }
    return true;
  };
}

let pool: Uint8Array | undefined;

/**
 * The process's text pool, built on first use (a few seconds in TypeScript;
 * the native addon installs its own build with setTprochTextPool when loaded).
 */
export function tprochTextPool(): Uint8Array {
  if (!pool) {
    const p = new Uint8Array(new SharedArrayBuffer(TPROCH_TEXT_POOL_SIZE));
    buildTprochTextPool(p);
    pool = p;
  }
  return pool;
}

/** The process's text pool, built (if not yet) without blocking the event loop for long. */
export async function tprochTextPoolAsync(): Promise<Uint8Array> {
  if (!pool) {
    const p = new Uint8Array(new SharedArrayBuffer(TPROCH_TEXT_POOL_SIZE));
    await buildTprochTextPoolAsync(p);
    pool ??= p;
  }
  return pool;
}

/** True when the pool is built or installed in this thread. */
export function hasTprochTextPool(): boolean {
  return pool !== undefined;
}

/** Installs a pool built elsewhere (another thread's SharedArrayBuffer, the native addon). */
export function setTprochTextPool(p: Uint8Array): void {
  if (p.length !== TPROCH_TEXT_POOL_SIZE) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `the TPROC-H text pool is ${TPROCH_TEXT_POOL_SIZE} bytes, not ${p.length}`, { field: 'pool' });
  }
  pool = p;
}

/** Comment length bounds for an average length (dbgen TEXT/V_STR: trunc(0.4·avg), trunc(1.6·avg)). */
export const textBounds = (avg: number): readonly [number, number] => [Math.trunc(avg * 0.4), Math.trunc(avg * 1.6)];
