import { createRequire } from 'node:module';
import type { ProbeResult } from '@sledge/core';
import { errorMessage } from './errors.js';
import { loadPg, loadPgCopy } from './lib.js';

const INSTALL = 'pnpm --filter @sledge/driver-postgresql install (packages pg and pg-copy-streams)';

/** Does `pg` (and pg-copy-streams for bulk loads) load? Never throws. */
export async function probePg(): Promise<ProbeResult> {
  try {
    await loadPg();
    await loadPgCopy();
    const pkg = createRequire(import.meta.url)('pg/package.json') as { version?: unknown };
    const version = typeof pkg.version === 'string' ? pkg.version : undefined;
    return version === undefined ? { available: true } : { available: true, libraryVersion: version };
  } catch (e) {
    return { available: false, reason: `pg does not load: ${errorMessage(e)}`, install: INSTALL };
  }
}
