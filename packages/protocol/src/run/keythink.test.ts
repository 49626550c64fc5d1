import { describe, expect, it } from 'vitest';
import { DEFAULT_KEY_THINK, defaultKeyThink, parseKeyThinkSpec } from './keythink.js';
import { parseTproccOptions } from '../workloads/tprocc.js';

describe('tprocc.keyThink', () => {
  it('defaults to TPC-C keying and mean thinking times, per type', () => {
    expect(parseTproccOptions({}).keyThink).toEqual(DEFAULT_KEY_THINK);
    expect(defaultKeyThink()).toEqual(DEFAULT_KEY_THINK);
    expect(defaultKeyThink()).not.toBe(DEFAULT_KEY_THINK);
  });
  it('a partial table keeps the defaults of the types left out', () => {
    const o = parseTproccOptions({ keyThink: { neworder: { keyingSec: 0.5, thinkMeanSec: 1 } } });
    expect(o.keyThink.neworder).toEqual({ keyingSec: 0.5, thinkMeanSec: 1 });
    expect(o.keyThink.payment).toEqual({ keyingSec: 3, thinkMeanSec: 12 });
  });
  it('bad values name the field', () => {
    expect(() => parseTproccOptions({ keyThink: { neworder: { keyingSec: -1, thinkMeanSec: 1 } } })).toThrow(expect.objectContaining({ field: 'tprocc.keyThink.neworder.keyingSec' }));
    expect(() => parseTproccOptions({ keyThink: { neword: { keyingSec: 1, thinkMeanSec: 1 } } })).toThrow(expect.objectContaining({ field: 'tprocc.keyThink.neword' }));
    expect(parseTproccOptions({ asyncVerbose: true }).asyncVerbose).toBe(true);
  });
  it('parses the CLI form TYPE=KEYING:THINK', () => {
    expect(parseKeyThinkSpec('neworder=18:12, delivery=0.5:1')).toEqual({ neworder: { keyingSec: 18, thinkMeanSec: 12 }, delivery: { keyingSec: 0.5, thinkMeanSec: 1 } });
    expect(() => parseKeyThinkSpec('slev=1:1')).toThrow(/TYPE=KEYING:THINK/);
  });
});
