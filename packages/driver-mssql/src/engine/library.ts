import { createRequire } from 'node:module';
import type { ProbeResult } from '@sledge/core';
import { SledgeError } from '@sledge/protocol';

export type Tedious = typeof import('tedious');

const require = createRequire(import.meta.url);
let loaded: Tedious | undefined;

export const INSTALL_TEDIOUS =
  'tedious is a pure JavaScript dependency of @sledge/driver-mssql: run `pnpm install` in the repository (Node 20 needs tedious 19.x; tedious 20 requires Node >= 22).';

/** Load tedious on first use, so a broken install surfaces as a typed error, never at import time. */
export function tedious(): Tedious {
  if (loaded) return loaded;
  try {
    loaded = require('tedious') as Tedious;
    return loaded;
  } catch (e) {
    throw new SledgeError('SLEDGE_E_DRIVER_UNAVAILABLE', `tedious does not load: ${firstLine(e)}. ${INSTALL_TEDIOUS}`, { cause: e });
  }
}

export function firstLine(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.split('\n')[0]!.trim();
}

export function probeTedious(): ProbeResult {
  try {
    tedious();
    const pkg = require('tedious/package.json') as { version?: string };
    return { available: true, ...(pkg.version ? { libraryVersion: pkg.version } : {}) };
  } catch (e) {
    const cause = SledgeError.is(e) && e.cause !== undefined ? e.cause : e;
    return { available: false, reason: firstLine(cause), install: INSTALL_TEDIOUS };
  }
}
