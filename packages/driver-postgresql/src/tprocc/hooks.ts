import type { AdminSession, BuildSchedule, BulkFormat, DatagenLayout, DatagenScript, LoaderSession, Logger, LibpqVuSpec, NativeVuLoad, TproccHooks, VuSession, VuSessionOptions } from '@sledge/core';
import { renderLoadScripts } from '@sledge/core';
import type { PgTproccTarget } from './target.js';
import { sqlFile, sqlTemplate, sqlText } from '@sledge/sql';
import { loadPgVuLoop } from '@sledge/worker-native';
import { PgAdminSession } from './admin.js';
import { libpqConninfo } from '../engine/config.js';
import { ROLLBACK_SQLSTATE } from '../engine/errors.js';
import { PgLoaderSession } from '../engine/loader.js';
import { callStatements, PgVuSession } from './vu.js';
import { PgClientSqlVu } from './vu-client.js';

/** What the native libpq loop runs for a target: the VU sessions' statements, connection and rollback rule. */
export function nativeVuSpec(t: PgTproccTarget): LibpqVuSpec {
  return { kind: 'libpq', conninfo: libpqConninfo(t, 'user'), statements: callStatements(t), rollbackSqlstate: ROLLBACK_SQLSTATE };
}

/** The native libpq loop of @sledge/worker-native, started with this driver's spec. */
function loadNativeVu(addonPath?: string): NativeVuLoad<PgTproccTarget> {
  const loop = loadPgVuLoop(addonPath === undefined ? {} : { path: addonPath });
  if (!loop.available) return { available: false, reason: loop.reason };
  return { available: true, start: (t, opts) => loop.start({ ...opts, spec: nativeVuSpec(t) }) };
}

const sqlString = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** load_postgresql.sql: psql \copy of every CSV file. */
function datagenScripts(layout: DatagenLayout): DatagenScript[] {
  const tables = { path: sqlFile('postgresql', 'tprocc', 'tables.sql'), text: sqlText('postgresql', 'tprocc', 'tables.sql') };
  const template = sqlTemplate('postgresql', 'tprocc', 'datagen_load.sql');
  return renderLoadScripts({ output: 'load_postgresql.sql', executable: false, quote: sqlString }, { tables, template }, layout);
}

/** TPROC-C on PostgreSQL. */
export const tproccHooks: TproccHooks<PgTproccTarget> = {
  bulkFormat(_t: PgTproccTarget): BulkFormat {
    return 'pg-text';
  },

  /**
   * Table lanes: concurrent COPY into one table contends on its extension lock, and a heap
   * appended in key order makes the key builds afterwards cheaper (presorted input).
   */
  buildSchedule(_t: PgTproccTarget): BuildSchedule {
    return 'lanes';
  },

  openAdmin(t: PgTproccTarget, log: Logger): Promise<AdminSession> {
    return PgAdminSession.open(t, log);
  },

  openLoader(t: PgTproccTarget, log: Logger): Promise<LoaderSession> {
    return PgLoaderSession.open(t, log);
  },

  /** The routines (one call per transaction), or with target.noStoredProcs the client-side statements of client.sql. */
  openVu(t: PgTproccTarget, opts: VuSessionOptions): Promise<VuSession> {
    return t.noStoredProcs ? PgClientSqlVu.open(t, opts) : PgVuSession.open(t, opts);
  },

  nativeVu: {
    name: 'the native libpq loop',
    spec: nativeVuSpec,
    load: loadNativeVu,
    unsupported: (t) =>
      t.noStoredProcs
        ? 'target.noStoredProcs is on (the native loop calls the routines; client-side SQL runs in JavaScript)'
        : t.prepared === false
          ? 'target.prepared is off (the native loop runs named prepared statements)'
          : undefined,
    javascriptCost: "node-postgres costs about 3.4x the native loop's client CPU per transaction (10x pgbench -S against 2.9-3.0x; docs/benchmarks.md)",
  },

  datagenScripts,
};
