import { describe, expect, it } from 'vitest';
import { parseTproccOptions } from '@sledge/protocol';
import { FIELD_FLAGS, jobBody } from '../src/args.js';

describe('failover flags', () => {
  it('--no-reconnect, --max-tries and --retry-on set tprocc.reconnect, maxTries and retryOn', () => {
    const b = jobBody('run', { db: 'postgresql', 'no-reconnect': true, 'max-tries': '3', 'retry-on': 'serialization, connection' });
    expect(b['tprocc']).toEqual({ reconnect: false, maxTries: 3, retryOn: ['serialization', 'connection'] });
    const o = parseTproccOptions(b['tprocc']);
    expect([o.reconnect, o.maxTries, o.retryOn]).toEqual([false, 3, ['serialization', 'connection']]);
  });
  it('leaves the defaults alone without them (reconnect on, 1 try, retry serialization)', () => {
    expect(jobBody('run', { db: 'postgresql' })['tprocc']).toEqual({});
    const o = parseTproccOptions({});
    expect([o.reconnect, o.maxTries, o.retryOn]).toEqual([true, 1, ['serialization']]);
  });
  it('a bad class or count is a typed error naming the field, and the field names its flag', () => {
    expect(() => parseTproccOptions({ retryOn: ['deadlocks'] })).toThrow(expect.objectContaining({ code: 'SLEDGE_E_VALIDATION', field: expect.stringMatching(/^tprocc\.retryOn/) }));
    expect(() => parseTproccOptions({ maxTries: 0 })).toThrow(expect.objectContaining({ code: 'SLEDGE_E_VALIDATION', field: 'tprocc.maxTries' }));
    expect(() => jobBody('run', { db: 'postgresql', 'max-tries': 'x' })).toThrow(expect.objectContaining({ field: '--max-tries' }));
    expect([FIELD_FLAGS['tprocc.reconnect'], FIELD_FLAGS['tprocc.maxTries'], FIELD_FLAGS['tprocc.retryOn']]).toEqual(['--no-reconnect', '--max-tries', '--retry-on']);
  });
  it('refuses them for TPROC-H, naming the flag', () => {
    expect(() => jobBody('run', { db: 'postgresql', workload: 'tproch', 'max-tries': '2' })).toThrow(expect.objectContaining({ field: '--max-tries' }));
  });
});
