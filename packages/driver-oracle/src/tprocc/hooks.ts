import type { AdminSession, BulkFormat, DatagenLayout, DatagenScript, LoaderSession, Logger, TproccHooks, TproccTarget, VuSession, VuSessionOptions } from '@sledge/core';
import { ddlColumn, fill, renderLoadScripts, templatePart, TPROCC_COLUMNS } from '@sledge/core';
import type { OracleTarget } from '@sledge/protocol';
import { sqlFile, sqlTemplate, sqlText } from '@sledge/sql';
import { OracleAdmin } from './admin.js';
import { OracleLoader } from '../engine/loader.js';
import { preflight } from '../engine/preflight.js';
import { OracleVu } from './vu.js';

/** load_oracle.sh: sqlldr of every CSV file, with a control file per table. */
function datagenScripts(layout: DatagenLayout): DatagenScript[] {
  const tables = { path: sqlFile('oracle', 'tprocc', 'tables.sql'), text: sqlText('oracle', 'tprocc', 'tables.sql') };
  const template = sqlTemplate('oracle', 'tprocc', 'datagen_load.sh');
  const tableFile = sqlTemplate('oracle', 'tprocc', 'datagen_load.ctl');
  return renderLoadScripts(
    {
      output: 'load_oracle.sh',
      executable: true,
      quote: (s) => s,
      fileVars: (f) => ({ control_file: `oracle_${f.table}.ctl` }),
      tableFile: {
        name: (t) => `oracle_${t}.ctl`,
        render: (table, parts, c, where) => {
          const fields = TPROCC_COLUMNS[table].map((col) => {
            const d = ddlColumn(c, table, col, where);
            const kind = /^(DATE|TIMESTAMP)/i.test(d.type) ? 'field_date' : d.length !== null && d.length > 255 ? 'field_long' : 'field';
            return fill(templatePart(parts, kind, where), { column: col, length: d.length ?? 0 }, where);
          });
          return fill(templatePart(parts, 'control', where), { table, fields: fields.join(',\n') }, where) + '\n';
        },
      },
    },
    { tables, template, tableFile },
    layout,
  );
}

/** TPROC-C on Oracle: PL/SQL procedures, array DML loads. */
export const tproccHooks: TproccHooks<TproccTarget<OracleTarget>> = {
  bulkFormat(): BulkFormat {
    return 'tuples';
  },

  async openAdmin(t: TproccTarget<OracleTarget>, log: Logger): Promise<AdminSession> {
    preflight(t);
    return new OracleAdmin(t, log);
  },

  async openLoader(t: TproccTarget<OracleTarget>, log: Logger): Promise<LoaderSession> {
    preflight(t);
    return await OracleLoader.open(t, log);
  },

  async openVu(t: TproccTarget<OracleTarget>, o: VuSessionOptions): Promise<VuSession> {
    preflight(t);
    return await OracleVu.open(t, o);
  },

  datagenScripts,
};
