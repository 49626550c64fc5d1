import type { AdminSession, BuildSchedule, BulkFormat, DatagenLayout, DatagenScript, LoaderSession, Logger, LoadScriptSpec, NativeVuLoad, NativeVuSpec, TproccHooks, TproccTarget, VuSession, VuSessionOptions } from '@sledge/core';
import { ddlColumn, fill, renderLoadScripts, templatePart, TPROCC_COLUMNS, vuSessionName } from '@sledge/core';
import { sqlFile, sqlTemplate, sqlText } from '@sledge/sql';
import { loadMyVuLoop } from '@sledge/worker-native';
import { MyAdmin } from './admin.js';
import { connect } from '../engine/connect.js';
import type { FamilyOptions } from '../engine/family.js';
import type { Flavour, MyTarget } from '../engine/flavour.js';
import { MyLoader } from '../engine/loader.js';
import type { SqlSet } from './sqlfiles.js';
import { ClientSqlVu } from './vu-client.js';
import { ProcedureVu, callStatements } from './vu.js';

const mysqlString = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** MySQL/MariaDB: nullable columns go through @variables and NULLIF (empty field = NULL). */
const mysqlVars: LoadScriptSpec['fileVars'] = (f, parts, c, where) => {
  const cols = TPROCC_COLUMNS[f.table];
  const nullable = cols.filter((col) => ddlColumn(c, f.table, col, where).nullable);
  const columnList = cols.map((col) => (nullable.includes(col) ? fill(templatePart(parts, 'column_nullable', where), { column: col }, where) : col)).join(', ');
  const assignments = nullable.map((col) => fill(templatePart(parts, 'assignment', where), { column: col }, where)).join(', ');
  return { column_list: columnList, set_clause: nullable.length ? fill(templatePart(parts, 'set_clause', where), { assignments }, where) : '' };
};

/** load_<flavour>.sql: LOAD DATA LOCAL INFILE of every CSV file (MariaDB's tables.sql is MySQL's, by the resolver's fallback). */
function datagenScripts(flavour: Flavour, layout: DatagenLayout): DatagenScript[] {
  const e = flavour.engine;
  const tables = { path: sqlFile(e, 'tprocc', 'tables.sql'), text: sqlText(e, 'tprocc', 'tables.sql') };
  const template = sqlTemplate(e, 'tprocc', 'datagen_load.sql');
  return renderLoadScripts({ output: `load_${e}.sql`, executable: false, quote: mysqlString, fileVars: mysqlVars }, { tables, template }, layout);
}

/** What the native MariaDB C connector loop runs for a target: the connection and the CALLs of calls.sql (as ProcedureVu sends them). */
export function nativeVuSpec(t: MyTarget, sql: SqlSet): NativeVuSpec {
  return {
    kind: 'libmariadb',
    host: t.host,
    port: t.port,
    socket: t.socket ?? '',
    user: t.user,
    password: t.password,
    database: t.database,
    statements: callStatements(sql),
  };
}

/** Why the native loop cannot run a target's VUs (settings it does not implement), or undefined. */
export function nativeVuUnsupported(t: MyTarget): string | undefined {
  if (t.noStoredProcs) return 'target.noStoredProcs is on (the native loop CALLs the stored procedures)';
  if (t.prepared) return 'target.prepared is on (the native loop sends text-protocol CALLs)';
  if (t.ssl) return 'target.ssl is on (the native loop connects without TLS)';
  return undefined;
}

/** TPROC-C on one MySQL-family flavour. */
export function mysqlFamilyTproccHooks<T extends MyTarget>(flavour: Flavour<T['engine']>, sql: () => SqlSet, o: FamilyOptions): TproccHooks<TproccTarget<T>> {
  return {
    bulkFormat(_target: TproccTarget<T>): BulkFormat {
      return 'csv';
    },

    /**
     * Table lanes balanced by rows ('rows'), as the bulk load splits its files: two LOAD DATA
     * streams into different tables overlap better than two into the same one. Measured on
     * MariaDB 10.11 at 16 warehouses: faster than HammerDB's ranges in 4 of 5 pairs, 24.5 s
     * against 25.9 s on the means (README, "Builds against the engine's bulk load"); MySQL
     * was not measured and follows MariaDB.
     */
    buildSchedule(_target: TproccTarget<T>): BuildSchedule {
      return 'rows';
    },

    async openAdmin(target: TproccTarget<T>, log: Logger): Promise<AdminSession> {
      return new MyAdmin(target, flavour, sql(), log, o.purgeBoundMs);
    },

    async openLoader(target: TproccTarget<T>, log: Logger): Promise<LoaderSession> {
      return MyLoader.open(target, flavour, log, o.loader);
    },

    async openVu(target: TproccTarget<T>, opts: VuSessionOptions): Promise<VuSession> {
      const conn = await connect(target, flavour, {
        useDatabase: true,
        role: vuSessionName(opts.vu, opts.tag).replace(/^sledge-vu-/, 'vu'),
        namedPlaceholders: target.noStoredProcs,
      });
      if (target.noStoredProcs) return new ClientSqlVu(conn, sql(), target.prepared);
      return new ProcedureVu(conn, callStatements(sql()), target.prepared);
    },

    nativeVu: {
      name: 'the native MariaDB C connector loop',
      spec: (t) => nativeVuSpec(t, sql()),
      load(addonPath?: string): NativeVuLoad<TproccTarget<T>> {
        const loop = loadMyVuLoop(addonPath === undefined ? {} : { path: addonPath });
        if (!loop.available) return { available: false, reason: loop.reason };
        return { available: true, start: (t, opts) => loop.start({ ...opts, spec: nativeVuSpec(t, sql()) }) };
      },
      unsupported: (t) => nativeVuUnsupported(t),
      javascriptCost:
        'mysql2 costs 2.4-6x the native loop\'s client CPU per transaction (126-143 vs 49-60 ms per 1000 at 2-4 VUs on a loaded machine, about 560 vs 95 ms on a fresh one; docs/benchmarks.md)',
    },

    datagenScripts: (layout) => datagenScripts(flavour, layout),
  };
}
