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
import { PM_MODULUS, PM_MULTIPLIER, TPROCH_STREAMS, SD } from './rng.js';

export const TPROCH_TEXT_POOL_SIZE = 300 * 1024 * 1024;

/** A distribution with its members as bytes. */
interface ByteDist {
  cumulative: readonly number[];
  total: number;
  words: readonly Uint8Array[];
}

const enc = new TextEncoder();
const byteDist = (d: TprochDist): ByteDist => ({ cumulative: d.cumulative, total: d.total, words: d.members.map((m) => enc.encode(m)) });

const SPACE = 0x20;

/** Builds the pool sequentially into `out` (TPROCH_TEXT_POOL_SIZE bytes). */
export function buildTprochTextPool(out: Uint8Array): void {
  if (out.length !== TPROCH_TEXT_POOL_SIZE) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `the TPROC-H text pool is ${TPROCH_TEXT_POOL_SIZE} bytes, not ${out.length}`, { field: 'pool' });
  }
  const d = TPROCH_DISTS;
  const grammar = d.grammar.members.map((g) => g.split(' ').map((t) => t.charCodeAt(0)));
  const np = d.np.members.map((f) => f.split(' ').map((t) => [t.charCodeAt(0), t.length > 1 ? t.charCodeAt(1) : 0] as const));
  const vp = d.vp.members.map((f) => f.split(' ').map((t) => t.charCodeAt(0)));
  const nouns = byteDist(d.nouns);
  const verbs = byteDist(d.verbs);
  const adjectives = byteDist(d.adjectives);
  const adverbs = byteDist(d.adverbs);
  const auxiliaries = byteDist(d.auxillaries);
  const prepositions = byteDist(d.prepositions);
  const terminators = byteDist(d.terminators);
  const articles = byteDist(d.articles);
  const posDist = (c: number): ByteDist => {
    switch (c) {
      case 0x4e: // N
        return nouns;
      case 0x56: // V
        return verbs;
      case 0x4a: // J
        return adjectives;
      case 0x44: // D
        return adverbs;
      case 0x58: // X
        return auxiliaries;
      default: // A
        return articles;
    }
  };

  let seed = TPROCH_STREAMS[SD.TEXT_POOL]![1];
  const draw = (total: number): number => {
    seed = (seed * PM_MULTIPLIER) % PM_MODULUS;
    return 1 + Math.trunc((seed / PM_MODULUS) * total);
  };
  const pickIndex = (cum: readonly number[], total: number): number => {
    const j = draw(total);
    let i = 0;
    while (cum[i]! < j) i++;
    return i;
  };

  const sent = new Uint8Array(1024);
  let n = 0;
  const put = (w: Uint8Array) => {
    sent.set(w, n);
    n += w.length;
  };
  const word = (dist: ByteDist) => put(dist.words[pickIndex(dist.cumulative, dist.total)]!);
  const nounPhrase = () => {
    for (const [pos, punct] of np[pickIndex(d.np.cumulative, d.np.total)]!) {
      word(posDist(pos));
      if (punct) sent[n++] = punct;
      sent[n++] = SPACE;
    }
  };
  const verbPhrase = () => {
    for (const pos of vp[pickIndex(d.vp.cumulative, d.vp.total)]!) {
      word(posDist(pos));
      sent[n++] = SPACE;
    }
  };
  const THE = enc.encode(' the ');

  let at = 0;
  while (at < TPROCH_TEXT_POOL_SIZE) {
    n = 0;
    for (const part of grammar[pickIndex(d.grammar.cumulative, d.grammar.total)]!) {
      switch (part) {
        case 0x4e: // N
          nounPhrase();
          break;
        case 0x56: // V
          verbPhrase();
          break;
        case 0x50: // P: preposition, " the ", noun phrase
          word(prepositions);
          put(THE);
          nounPhrase();
          break;
        default: // T: the terminator replaces the trailing space
          n--;
          word(terminators);
      }
    }
    const room = TPROCH_TEXT_POOL_SIZE - at;
    if (room >= n + 1) {
      out.set(sent.subarray(0, n), at);
      out[at + n] = SPACE;
      at += n + 1;
    } else {
      out.set(sent.subarray(0, room), at);
      at += room;
    }
  }
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
