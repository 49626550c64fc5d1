import { describe, expect, it } from 'vitest';
import { DEFAULT_KEY_THINK } from '@sledge/protocol';
import { FIELD_FLAGS, jobBody } from '../src/args.js';

describe('fixed-throughput and async flags', () => {
  it('--key-think sets the keying/thinking table: the named types replaced, the others at TPC-C defaults', () => {
    const b = jobBody('run', { db: 'postgresql', keyandthink: true, 'key-think': 'neworder=1.5:2, payment=0:0.25' });
    expect(b['tprocc']).toEqual({
      keyAndThink: true,
      keyThink: { ...DEFAULT_KEY_THINK, neworder: { keyingSec: 1.5, thinkMeanSec: 2 }, payment: { keyingSec: 0, thinkMeanSec: 0.25 } },
    });
  });

  it('a malformed --key-think names the flag and the form expected', () => {
    expect(() => jobBody('run', { db: 'postgresql', 'key-think': 'neword=18:12' })).toThrow(expect.objectContaining({ field: '--key-think', message: expect.stringContaining('TYPE=KEYING:THINK') }));
    expect(() => jobBody('run', { db: 'postgresql', 'key-think': 'neworder=18' })).toThrow(expect.objectContaining({ field: '--key-think' }));
  });

  it('--async-delay, --async-verbose and --no-prepared', () => {
    const b = jobBody('run', { db: 'postgresql', 'async-scale': true, 'async-clients': '50', 'async-delay': '20', 'async-verbose': true, 'no-prepared': true });
    expect(b['tprocc']).toEqual({ asyncScale: true, asyncClients: 50, asyncDelayMs: 20, asyncVerbose: true });
    expect(b['target']).toEqual({ engine: 'postgresql', prepared: false });
    expect(FIELD_FLAGS['tprocc.keyThink']).toBe('--key-think');
    expect(FIELD_FLAGS['tprocc.asyncDelayMs']).toBe('--async-delay');
  });
});

describe('--mix', () => {
  it('sets the whole transaction mix, the types left out at 0', () => {
    expect(jobBody('run', { db: 'sqlite', mix: 'neworder=100' })['tprocc']).toEqual({ mix: { neworder: 100, payment: 0, delivery: 0, stocklevel: 0, orderstatus: 0 } });
    expect(jobBody('run', { db: 'sqlite', mix: 'neworder=45,payment=43,delivery=4,stocklevel=4,orderstatus=4' })['tprocc']).toEqual({
      mix: { neworder: 45, payment: 43, delivery: 4, stocklevel: 4, orderstatus: 4 },
    });
    expect(FIELD_FLAGS['tprocc.mix']).toBe('--mix');
    expect(FIELD_FLAGS['tprocc.mix.neworder']).toBe('--mix');
  });

  it('a malformed --mix names the flag and the form expected', () => {
    expect(() => jobBody('run', { db: 'sqlite', mix: 'slev=4' })).toThrow(expect.objectContaining({ field: '--mix', message: expect.stringContaining('TYPE=WEIGHT') }));
    expect(() => jobBody('run', { db: 'sqlite', mix: 'neworder=50%' })).toThrow(expect.objectContaining({ field: '--mix' }));
    expect(() => jobBody('run', { db: 'sqlite', mix: true })).toThrow(expect.objectContaining({ field: '--mix', message: '--mix: it needs a value' }));
  });
});
