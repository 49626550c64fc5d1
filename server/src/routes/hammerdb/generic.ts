import { DATABASES } from './dicts.js';
import type { RunCtx } from './lifecycle.js';
import { metset } from './metrics.js';
import { failure, success, type Outcome, type Pairs } from './reply.js';
import { dbset, dgset, tcset, vuset } from './settings.js';
import type { HdbSession, VuOption } from './state.js';

/**
 * HammerDB's generic dict (config/generic.xml, `print generic`, `giset`).
 * Every key is one of:
 * - an alias of a setting another verb owns (vuset, tcset, dgset, metset,
 *   dbset): giset goes through that verb's checks;
 * - stored and honoured here (commandline keepalive_margin bounds
 *   waittocomplete); jobsoutput and jobs_profile_id are the `jobs` verb's
 *   format and profile id (vurun tags its jobs with the profile id);
 * - fixed: accepted at HammerDB's default (or another value that changes
 *   nothing in Sledge) and refused otherwise, saying why.
 */
type Alias = { via: (ctx: RunCtx, value: string) => Outcome | Promise<Outcome>; read: (s: HdbSession) => string };
type Stored = { def: string; check: (v: string) => string | null };
type Fixed = { def: string; allowed: readonly string[]; why: string };
export type GenericKey = Alias | Stored | Fixed;

const one = (key: string, value: string): Pairs => [[key, value]];
const vu = (opt: VuOption): Alias => ({ via: (ctx, v) => vuset(ctx, one(opt, v)), read: (s) => s.vu[opt] });
const dg = (opt: 'vu' | 'warehouse' | 'scale_fact' | 'directory', field: keyof HdbSession['dg']): Alias => ({ via: (ctx, v) => dgset(ctx, one(opt, v)), read: (s) => s.dg[field] });
const fixed = (def: string, why: string, also: readonly string[] = []): Fixed => ({ def, allowed: [def, ...also], why });
const GUI = 'HammerDB GUI setting: Sledge has its own dashboard';
const tcFlag = (key: string): Fixed => fixed('0', `Sledge stores the transaction counter with the job (jobs?jobid=ID&tcount), not in a temp-dir log (${key})`);

export const GENERIC: Record<string, Record<string, GenericKey>> = {
  theme: { scaletheme: fixed('dark', GUI, ['light']), pixelsperpoint: fixed('auto', GUI) },
  sqlitedb: { sqlitedb_dir: fixed('TMP', 'Sledge keeps these settings and its jobs in its job store, <SLEDGE_DATA_DIR>/sledge.db') },
  code_highlight: { highlight: fixed('true', GUI, ['false']), quote_passwords: fixed('true', 'Sledge never shows passwords') },
  benchmark: {
    rdbms: {
      via: (ctx, v) => {
        const db = DATABASES.find((d) => d.name === v || d.prefix === v);
        return db ? dbset(ctx, one('db', db.prefix)) : failure(`Unknown database ${v}, choose one from ${DATABASES.map((d) => d.name).join(' ')}`);
      },
      read: (s) => s.db.name,
    },
    bm: { via: (ctx, v) => dbset(ctx, one('bm', v)), read: (s) => s.bm },
    first_result: fixed('NOPM', 'Sledge reports NOPM first, then TPM, as HammerDB does by default'),
  },
  virtual_user_options: {
    virtual_users: vu('vu'),
    user_delay: vu('delay'),
    repeat_delay: vu('repeat'),
    iterations: vu('iterations'),
    show_output: vu('showoutput'),
    log_to_temp: vu('logtotemp'),
    unique_log_name: vu('unique'),
    no_log_buffer: vu('nobuff'),
    log_timestamps: vu('timestamps'),
  },
  autopilot: {
    apmode: fixed('disabled', 'autopilot is a HammerDB GUI mode: run a VU sweep as a Sledge performance profile (POST /api/v1/profiles)'),
    autopilot_duration: fixed('10', 'autopilot is a HammerDB GUI mode: run a VU sweep as a Sledge performance profile (POST /api/v1/profiles)'),
    autopilot_sequence: fixed('1 2 4 8 12 16 20 24', 'autopilot is a HammerDB GUI mode: run a VU sweep as a Sledge performance profile (POST /api/v1/profiles)'),
  },
  mode: {
    hostname: fixed('localhost', 'Sledge runs in local mode only (switchmode local)'),
    id: fixed('0', 'Sledge runs in local mode only (switchmode local)'),
  },
  transaction_counter: {
    tc_refresh_rate: { via: (ctx, v) => tcset(ctx, one('refreshrate', v)), read: (s) => s.tc['tc_refresh_rate'] ?? '10' },
    tc_log_to_temp: tcFlag('tc_log_to_temp'),
    tc_unique_log_name: tcFlag('tc_unique_log_name'),
    tc_log_timestamps: tcFlag('tc_log_timestamps'),
    tc_graph_ribbon: fixed('false', GUI),
  },
  metrics: {
    agent_hostname: { via: (ctx, v) => metset(ctx, one('agent_hostname', v)), read: (s) => s.metrics.agent_hostname },
    agent_id: { via: (ctx, v) => metset(ctx, one('agent_id', v)), read: (s) => s.metrics.agent_id },
  },
  datageneration: {
    gen_count_ware: dg('warehouse', 'warehouse'),
    gen_scale_fact: dg('scale_fact', 'scale_fact'),
    gen_num_vu: dg('vu', 'vu'),
    gen_directory: dg('directory', 'directory'),
  },
  commandline: {
    sqlite_db: fixed('TMP', 'Sledge keeps its jobs in its job store, <SLEDGE_DATA_DIR>/sledge.db'),
    keepalive_margin: { def: '60', check: (v) => (/^\d+$/.test(v) && Number(v) <= 86400 ? null : 'keepalive_margin must be a whole number of seconds from 0 to 86400') },
    // The `jobs` verb's settings (jobs format, jobs profileid): the same values.
    jobsoutput: {
      via: (ctx, v) => {
        if (v !== 'JSON' && v !== 'text') return failure('Error: Usage: jobs format [ text | JSON ]');
        ctx.s.jobs.format = v;
        return success(v);
      },
      read: (s) => s.jobs.format,
    },
    jobs_disable: fixed('0', 'Sledge stores every job'),
    jobs_profile_id: {
      via: (ctx, v) => {
        if (!/^\d+$/.test(v)) return failure('Error: Performance profile id should be an integer');
        ctx.s.jobs.profileId = Number(v);
        return success(v);
      },
      read: (s) => String(s.jobs.profileId),
    },
  },
  webservice: { ws_port: fixed('8080', 'Sledge listens on the port it was started with (--port / PORT)') },
  tpcoss: { submit_url: fixed('https://tpc-council.github.io/hammerdb-results/submit.html', 'Sledge does not submit results') },
  timeprofile: {
    profiler: fixed('xtprof', "Sledge's time profile is xtprof's (per-transaction percentiles)"),
    xt_unique_log_name: fixed('0', 'Sledge stores the time profile with the job (jobs?jobid=ID&timing), not in a temp-dir log'),
    // HammerDB's wait (minutes) for VUs to hand in their timings at the end of a run. Sledge's VUs write
    // every transaction's time into shared histograms as it ends, so the end of a run has no report to
    // wait for: the value is checked and kept (print generic shows it) and no run waits on it.
    xt_gather_timeout: { def: '60', check: (v) => (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 10080 ? null : 'xt_gather_timeout must be a whole number of minutes from 1 to 10080') },
    xt_job_storage: fixed('1', 'Sledge always stores the time profile with the job'),
    xt_reservoir: fixed('10000', "Sledge's latency histograms keep every sample; there is no reservoir to size"),
  },
};

const isAlias = (k: GenericKey): k is Alias => 'via' in k;
const isStored = (k: GenericKey): k is Stored => 'check' in k;

function valueOf(s: HdbSession, section: string, key: string): string {
  const k = GENERIC[section]![key]!;
  if (isAlias(k)) return k.read(s);
  return s.generic[section]?.[key] ?? k.def;
}

/** print?generic: every section and key with its current value. */
export function printGeneric(s: HdbSession): Record<string, Record<string, string>> {
  return Object.fromEntries(Object.entries(GENERIC).map(([section, keys]) => [section, Object.fromEntries(Object.keys(keys).map((k) => [k, valueOf(s, section, k)]))]));
}

const isFailure = (o: Outcome): boolean => typeof o === 'object' && o !== null && 'error' in o;

/** POST /giset {"dict":"<section>","key":"<key>","value":"<value>"} */
export async function giset(ctx: RunCtx, pairs: Pairs): Promise<Outcome> {
  if (pairs.length !== 3) return failure('Incorrect number of parameters to giset dict key value');
  const named = new Map(pairs);
  const [d, key, val] = named.has('dict') && named.has('key') && named.has('value') ? [named.get('dict')!, named.get('key')!, named.get('value')!] : (pairs.map((p) => p[1]) as [string, string, string]);
  const section = Object.prototype.hasOwnProperty.call(GENERIC, d) ? GENERIC[d]! : undefined;
  if (!section) return failure(`Dictionary "${d}" does not exist: type "print generic" for valid dictionaries and keys`);
  if (!Object.prototype.hasOwnProperty.call(section, key)) return failure(`Dictionary "${d}" exists but key "${key}" doesn't`);
  const k = section[key]!;
  const previous = valueOf(ctx.s, d, key);
  if (previous === val) return success(`Value ${val} for ${d}:${key} is the same as existing value ${previous}, no change made`);
  if (isAlias(k)) {
    const r = await k.via(ctx, val);
    if (isFailure(r)) return r;
  } else if (isStored(k)) {
    const why = k.check(val);
    if (why) return failure(why);
    (ctx.s.generic[d] ??= {})[key] = val;
  } else if (k.allowed.includes(val)) {
    (ctx.s.generic[d] ??= {})[key] = val;
  } else {
    return failure(`Value ${val} for ${d}:${key} is not supported: ${k.why}; it stays ${k.allowed.join(' or ')}`);
  }
  return success(`Changed ${d}:${key} from ${previous} to ${valueOf(ctx.s, d, key)} for generic`);
}
