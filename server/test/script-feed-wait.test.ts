import { describe, expect, it } from 'vitest';
import { FEED_MAX_MS, FEED_MS, nextFeedWait } from '../dist/workloads/script/native-vus.js';

// The native script host's wait between refills (issue 37: fewer wake-ups of the worker thread): a third of the
// time the fastest VU takes to run through its refilled feed, within FEED_MS..FEED_MAX_MS.
describe('nextFeedWait', () => {
  it('ticks at the shortest wait while no VU has run anything (no rate known yet)', () => {
    expect(nextFeedWait(Infinity)).toBe(FEED_MS);
    expect(nextFeedWait(Number.NaN)).toBe(FEED_MS);
  });

  it('waits a third of the feed time, at most FEED_MAX_MS', () => {
    // ~1,400 tpcb-like transactions in a feed at 200 a second: 7 s of work.
    expect(nextFeedWait(7)).toBe(FEED_MAX_MS);
    expect(nextFeedWait(0.6)).toBe(200);
  });

  it('never waits less than FEED_MS, however fast a VU drains its feed', () => {
    expect(nextFeedWait(0.01)).toBe(FEED_MS);
    expect(nextFeedWait(0)).toBe(FEED_MS);
  });
});
