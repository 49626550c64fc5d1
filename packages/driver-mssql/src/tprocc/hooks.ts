import type { AdminSession, BulkFormat, DatagenLayout, DatagenScript, LoaderSession, Logger, TproccHooks, TproccTarget, VuSession, VuSessionOptions } from '@sledge/core';
import { ddlColumn, fill, renderLoadScripts, templatePart, TPROCC_COLUMNS } from '@sledge/core';
import type { MssqlTarget } from '@sledge/protocol';
import { sqlFile, sqlTemplate, sqlText } from '@sledge/sql';
import { MssqlAdmin } from './admin.js';
import { MssqlLoader } from '../engine/loader.js';
import { preflight } from '../engine/preflight.js';
import { MssqlVu } from './vu.js';

/** load_mssql.sh: bcp of every CSV file, with a format file per table. */
function datagenScripts(layout: DatagenLayout): DatagenScript[] {
  const tables = { path: sqlFile('mssql', 'tprocc', 'tables.sql'), text: sqlText('mssql', 'tprocc', 'tables.sql') };
  const template = sqlTemplate('mssql', 'tprocc', 'datagen_load.sh');
  const tableFile = sqlTemplate('mssql', 'tprocc', 'datagen_load.fmt');
  return renderLoadScripts(
    {
      output: 'load_mssql.sh',
      executable: true,
      quote: (s) => s,
      fileVars: (f) => ({ format_file: `mssql_${f.table}.fmt` }),
      tableFile: {
        name: (t) => `mssql_${t}.fmt`,
        render: (table, parts, c, where) => {
          const cols = TPROCC_COLUMNS[table];
          const fields = cols.map((col, i) =>
            fill(templatePart(parts, 'field', where), { n: i + 1, terminator: i === cols.length - 1 ? '\\n' : ',', ordinal: ddlColumn(c, table, col, where).ordinal, column: col }, where),
          );
          return fill(templatePart(parts, 'format', where), { count: cols.length, fields: fields.join('\n') }, where) + '\n';
        },
      },
    },
    { tables, template, tableFile },
    layout,
  );
}

/** TPROC-C on SQL Server: T-SQL procedures, TDS bulk copy loads. */
export const tproccHooks: TproccHooks<TproccTarget<MssqlTarget>> = {
  bulkFormat(): BulkFormat {
    return 'tuples';
  },

  async openAdmin(t: TproccTarget<MssqlTarget>, log: Logger): Promise<AdminSession> {
    preflight(t);
    return new MssqlAdmin(t, log);
  },

  async openLoader(t: TproccTarget<MssqlTarget>, log: Logger): Promise<LoaderSession> {
    preflight(t);
    return await MssqlLoader.open(t, log);
  },

  async openVu(t: TproccTarget<MssqlTarget>, o: VuSessionOptions): Promise<VuSession> {
    preflight(t);
    return await MssqlVu.open(t, o);
  },

  datagenScripts,
};
