import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TPROCH_TEXT_POOL_SIZE, buildTprochTextPoolAsync, hasTprochTextPool } from '@sledge/core';
import { buildTprochSharedPool } from '../lib/index.js';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** The one pool a TPROC-H build makes for all its workers (server makeTprochTextPool). */
describe('buildTprochSharedPool', () => {
  it('is a new 300 MiB SharedArrayBuffer pool, byte for byte the TypeScript build, and not installed in this thread', async () => {
    const pool = await buildTprochSharedPool('auto');
    expect(pool.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(pool.length).toBe(TPROCH_TEXT_POOL_SIZE);
    // The workers install it (setTprochTextPool); the thread that built it keeps nothing once they are gone.
    expect(hasTprochTextPool()).toBe(false);
    const ts = new Uint8Array(TPROCH_TEXT_POOL_SIZE);
    await buildTprochTextPoolAsync(ts);
    // Where the addon loads, 'auto' builds it in C++: the same bytes.
    expect(sha(pool)).toBe(sha(ts));
  });
});
