import { describe, expect, it } from 'vitest';
import { JOB_ID_PATTERN } from '@sledge/protocol';
import { newJobId, newShareToken } from './ids.js';

describe('newJobId', () => {
  it('is 24 uppercase hex: unix seconds, a clock part and random hex', () => {
    const before = Math.floor(Date.now() / 1000);
    const id = newJobId();
    const after = Math.floor(Date.now() / 1000);
    expect(id).toMatch(new RegExp(JOB_ID_PATTERN));
    expect(id).toHaveLength(24);
    const seconds = parseInt(id.slice(0, 8), 16);
    expect(seconds).toBeGreaterThanOrEqual(before);
    expect(seconds).toBeLessThanOrEqual(after);
  });

  it('is unique over 100,000 ids made in a tight loop', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 100000; i++) ids.add(newJobId());
    expect(ids.size).toBe(100000);
  });

  it('has a random tail (not constant like HammerDB\'s "03E2")', () => {
    const tails = new Set(Array.from({ length: 50 }, () => newJobId().slice(12, 16)));
    expect(tails.size).toBeGreaterThan(40);
  });
});

describe('newShareToken', () => {
  it('is url-safe, at least 22 characters and unique', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => newShareToken()));
    expect(tokens.size).toBe(1000);
    for (const t of tokens) expect(t).toMatch(/^[A-Za-z0-9_-]{22,}$/);
  });
});
