import { secretFields } from '@sledge/protocol';
import { DATABASES, keyName } from './dicts.js';
import { dictToSledge, keyForField, KeyValueError } from './keymap.js';
import { printGeneric } from './generic.js';
import { failure, type Outcome } from './reply.js';
import { maskDict, type Ctx } from './settings.js';
import { VU_OPTIONS } from './state.js';
import { existingVus, vuComplete, vuStatusText } from './vus.js';

/**
 * print?<option> and its direct pages (/db, /bm, /dict, /generic, /script, /vuconf,
 * /vucreated, /vustatus, /vucomplete, /datagen, /tcconf).
 */
export const PRINT_OPTIONS = ['db', 'bm', 'dict', 'generic', 'script', 'vuconf', 'vucreated', 'vustatus', 'vucomplete', 'datagen', 'tcconf'] as const;
export type PrintOption = (typeof PRINT_OPTIONS)[number];

export function print(ctx: Ctx, option: string): Outcome {
  const { s } = ctx;
  switch (option as PrintOption) {
    case 'db': {
      const database = currentDatabase(ctx);
      return { current: s.db.name, ...(database !== undefined ? { database } : {}), ...Object.fromEntries(DATABASES.map((d) => [d.prefix, d.name])) };
    }
    case 'bm':
      return { benchmark: s.bm };
    case 'dict':
      return maskDict(s.printableDict());
    case 'generic':
      return printGeneric(s);
    case 'script':
      // A custom script prints as loaded (its passwords as ********).
      return s.script ? { script: s.script.custom ? s.script.custom.text : scriptDescription(ctx) } : failure('No Script loaded: load with loadscript');
    case 'vuconf':
      return Object.fromEntries(VU_OPTIONS.map(([k, label]) => [label, s.vu[k]]));
    case 'vucreated':
      return { 'Virtual Users created': existingVus(s, ctx.store)?.count ?? 0 };
    case 'vustatus':
      return { 'Virtual User status': vuStatusText(s, ctx.store) };
    case 'vucomplete':
      return { 'Virtual Users complete': vuComplete(s, ctx.store) };
    case 'datagen':
      return s.bm === 'TPC-C'
        ? { schema: s.bm, database: s.db.name, warehouses: s.dg.warehouse, vu: s.dg.vu, directory: s.dg.directory }
        : { schema: s.bm, database: s.db.name, scale_factor: s.dg.scale_fact, vu: s.dg.vu, directory: s.dg.directory };
    case 'tcconf':
      return { ...s.tc };
    default:
      return { usage: { message: 'print?option' } };
  }
}

/**
 * The database the session's settings currently name for the current
 * benchmark, as it stands in the dict (after `diset`): the key Sledge reads as
 * the target's database (`<prefix>_dbase`; the schema owner `tpcc_user` for
 * Oracle, the file for SQLite), or `<prefix>_tpch_dbase` for TPC-H.
 */
export function currentDatabase({ s }: Ctx): string | undefined {
  const dict = s.dict;
  const find = (key: string | undefined): string | undefined => {
    if (key === undefined) return undefined;
    for (const section of Object.values(dict)) if (section && key in section) return section[key];
    return undefined;
  };
  if (s.bm === 'TPC-H') {
    const tpch = dict.tpch ? Object.keys(dict.tpch).find((k) => /(^|_)tpch_dbase$/.test(k)) : undefined;
    if (tpch !== undefined) return dict.tpch![tpch];
  }
  // The first of the fields that name where the data lives that this engine has: database, file (SQLite), user (Oracle's schema).
  const engine = s.db.engine;
  for (const field of ['target.database', 'target.file', 'target.user']) {
    const v = find(keyForField(s.prefix, engine, field));
    if (v !== undefined) return v;
  }
  return undefined;
}

/** What vurun would do, in place of HammerDB's generated Tcl driver script. */
function scriptDescription({ s }: Ctx): string {
  const head = 'Sledge runs TPROC-C natively; no Tcl driver script.';
  let fields;
  try {
    fields = dictToSledge(s.prefix, s.db.engine, s.dict);
  } catch (e) {
    if (e instanceof KeyValueError) return `${head} The dict does not describe a valid workload: ${e.message}`;
    throw e;
  }
  const secrets = new Set(secretFields(s.db.engine));
  const target = Object.entries(fields.target)
    .filter(([k]) => k !== 'engine' && !secrets.has(k))
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(', ');
  const t = fields.tprocc;
  const timed = t['driver'] !== 'test';
  const vus = Number(s.vu.vu);
  const run = timed ? `rampup ${String(t['rampup'])} min, duration ${String(t['duration'])} min` : `${String(t['totalIterations'])} transactions per virtual user`;
  return (
    `${head} vurun runs the ${timed ? 'timed' : 'test'} driver on ${s.db.name} (${target}) with ${vus} virtual user${vus === 1 ? '' : 's'}${timed ? ' + 1 monitor' : ''}: ` +
    `${run}; keyandthink ${String(t['keyAndThink'])}, allwarehouse ${String(t['allWarehouse'])}, timeprofile ${String(t['timeProfile'])}, async_scale ${String(t['asyncScale'])}; ` +
    `user delay ${s.vu.delay} ms, repeat delay ${s.vu.repeat} ms, iterations ${s.vu.iterations}; transaction counter every ${String(s.tc['tc_refresh_rate'])} s. ` +
    `buildschema builds ${String(t['warehouses'])} warehouse(s) with ${String(t['buildVus'])} build virtual user(s) (${keyName(s.prefix, 'count_ware')}, ${keyName(s.prefix, 'num_vu')}).`
  );
}
