import type { ScriptNativeLoop } from '@sledge/core';
import type { PostgresqlTarget } from '@sledge/protocol';
import { loadPgVuLoop } from '@sledge/worker-native';
import { libpqConninfo } from './config.js';

/**
 * Driver.scriptNativeVu on PostgreSQL: sledge_pgvu's script loop, one libpq
 * connection per VU as the target's user on its database (the parameter
 * session's login), statements as named prepared statements (pgbench's
 * `-M prepared`, target.prepared).
 */
export const pgScriptNativeVu: ScriptNativeLoop<PostgresqlTarget> = {
  name: 'the native libpq loop',
  placeholder: (n) => `$${n}`,
  unsupported: (t) => (t.prepared === false ? 'target.prepared is off (the native loop runs named prepared statements; -M extended runs in JavaScript)' : undefined),
  load(addonPath) {
    const loop = loadPgVuLoop(addonPath === undefined ? {} : { path: addonPath });
    if (!loop.available) return { available: false, reason: loop.reason };
    return { available: true, start: (t, opts) => loop.startScript(libpqConninfo(t, 'user'), opts) };
  },
};
