import type { AdminSession, BulkFormat, DatagenLayout, DatagenScript, LoaderSession, Logger, TproccHooks, TproccTarget, VuSession, VuSessionOptions } from '@sledge/core';
import { renderLoadScripts } from '@sledge/core';
import type { Db2Target } from '@sledge/protocol';
import { sqlFile, sqlTemplate, sqlText } from '@sledge/sql';
import { Db2Admin } from './admin.js';
import { Db2Loader } from '../engine/loader.js';
import { preflight } from '../engine/preflight.js';
import { Db2Vu } from './vu.js';

const db2Path = (s: string) => (/^[A-Za-z0-9_./:-]+$/.test(s) ? s : `"${s.replace(/"/g, '""')}"`);

/** load_db2.sql: db2 LOAD of every CSV file. */
function datagenScripts(layout: DatagenLayout): DatagenScript[] {
  const tables = { path: sqlFile('db2', 'tprocc', 'tables.sql'), text: sqlText('db2', 'tprocc', 'tables.sql') };
  const template = sqlTemplate('db2', 'tprocc', 'datagen_load.sql');
  return renderLoadScripts({ output: 'load_db2.sql', executable: false, quote: db2Path }, { tables, template }, layout);
}

/** TPROC-C on Db2: SQL PL procedures, multi-row INSERT loads. */
export const tproccHooks: TproccHooks<TproccTarget<Db2Target>> = {
  bulkFormat(): BulkFormat {
    return 'tuples';
  },

  async openAdmin(t: TproccTarget<Db2Target>, log: Logger): Promise<AdminSession> {
    preflight(t);
    return new Db2Admin(t, log);
  },

  async openLoader(t: TproccTarget<Db2Target>, log: Logger): Promise<LoaderSession> {
    preflight(t);
    return await Db2Loader.open(t, log);
  },

  async openVu(t: TproccTarget<Db2Target>, o: VuSessionOptions): Promise<VuSession> {
    preflight(t);
    return await Db2Vu.open(t, o);
  },

  datagenScripts,
};
