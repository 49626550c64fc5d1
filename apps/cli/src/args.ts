import { ENGINES, ENGINE_URL, SledgeError, defaultKeyThink, didYouMean, parseKeyThinkSpec, parseMixSpec, TX_TYPES, type EngineId } from '@sledge/protocol';
import { SHAPE_FIELD_FLAGS, SHAPE_FLAGS, shapeOptions } from './shapes.js';
import { connectPoolFromFile } from './connect-pool.js';
import { scriptEntries, type ScriptFlags } from './script.js';

/** Flags shared by build/check/delete/run/datagen. */
export const JOB_FLAGS = {
  db: { type: 'string' },
  url: { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string' },
  socket: { type: 'string' },
  user: { type: 'string' },
  password: { type: 'string' },
  database: { type: 'string' },
  superuser: { type: 'string' },
  'superuser-password': { type: 'string' },
  file: { type: 'string' },
  'connect-string': { type: 'string' },
  'system-user': { type: 'string' },
  'system-password': { type: 'string' },
  encrypt: { type: 'string' },
  'trust-server-cert': { type: 'string' },
  auth: { type: 'string' },
  ssl: { type: 'boolean' },
  warehouses: { type: 'string' },
  'build-vus': { type: 'string' },
  vus: { type: 'string' },
  driver: { type: 'string' },
  rampup: { type: 'string' },
  duration: { type: 'string' },
  'total-iterations': { type: 'string' },
  keyandthink: { type: 'boolean' },
  allwarehouse: { type: 'boolean' },
  timeprofile: { type: 'boolean' },
  raiseerror: { type: 'boolean' },
  verify: { type: 'boolean' },
  'user-delay': { type: 'string' },
  'tc-refresh': { type: 'string' },
  workers: { type: 'string' },
  threads: { type: 'string' },
  'async-scale': { type: 'boolean' },
  'async-clients': { type: 'string' },
  'async-delay': { type: 'string' },
  'async-verbose': { type: 'boolean' },
  'key-think': { type: 'string' },
  mix: { type: 'string' },
  'no-prepared': { type: 'boolean' },
  'no-reconnect': { type: 'boolean' },
  'max-tries': { type: 'string' },
  'retry-on': { type: 'string' },
  'stored-procs': { type: 'boolean' },
  'no-stored-procs': { type: 'boolean' },
  prepared: { type: 'boolean' },
  partition: { type: 'boolean' },
  'storage-engine': { type: 'string' },
  seed: { type: 'string' },
  label: { type: 'string' },
  'profile-id': { type: 'string' },
  dir: { type: 'string' },
  timestamp: { type: 'string' },
  'ash-background-idle': { type: 'boolean' },
  'ash-scope': { type: 'string' },
  'connect-pool': { type: 'string' },
  workload: { type: 'string' },
  replicas: { type: 'string' },
  'replica-vus': { type: 'string' },
  scale: { type: 'string' },
  mode: { type: 'string' },
  streams: { type: 'string' },
  'query-sets': { type: 'string' },
  refresh: { type: 'boolean' },
  'update-sets': { type: 'string' },
  trickle: { type: 'string' },
  dop: { type: 'string' },
  'query-timeout': { type: 'string' },
  'raise-query-error': { type: 'boolean' },
  'analytic-streams': { type: 'string' },
  validation: { type: 'boolean' },
  'no-explain': { type: 'boolean' },
  verbose: { type: 'boolean' },
  ...SHAPE_FLAGS,
} as const;

export type Flags = Partial<Record<keyof typeof JOB_FLAGS, string | boolean>>;

const num = (flag: string, v: string | boolean | undefined): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (typeof v !== 'string' || v.trim() === '' || !Number.isFinite(n)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `--${flag} must be a number (got ${JSON.stringify(v)})`, { field: `--${flag}` });
  }
  return n;
};
const bool = (flag: string, v: string | boolean | undefined): boolean | undefined => {
  if (v === undefined || typeof v === 'boolean') return v;
  if (/^(true|1|yes|on)$/i.test(v)) return true;
  if (/^(false|0|no|off)$/i.test(v)) return false;
  throw new SledgeError('SLEDGE_E_VALIDATION', `--${flag} must be true or false (got ${JSON.stringify(v)})`, { field: `--${flag}` });
};

/** 'off': a --no-x flag that sets its field false; 'list': comma-separated values. */
type Kind = 'string' | 'number' | 'flag' | 'bool' | 'off' | 'list';
type FlagName = keyof typeof JOB_FLAGS;

/** CLI flag -> target field. */
const TARGET_FLAGS: readonly (readonly [FlagName, string, Kind])[] = [
  ['host', 'host', 'string'],
  ['port', 'port', 'number'],
  ['socket', 'socket', 'string'],
  ['user', 'user', 'string'],
  ['password', 'password', 'string'],
  ['database', 'database', 'string'],
  ['superuser', 'superuser', 'string'],
  ['superuser-password', 'superuserPassword', 'string'],
  ['file', 'file', 'string'],
  ['connect-string', 'connectString', 'string'],
  ['system-user', 'systemUser', 'string'],
  ['system-password', 'systemPassword', 'string'],
  ['encrypt', 'encrypt', 'bool'],
  ['trust-server-cert', 'trustServerCertificate', 'bool'],
  ['auth', 'authentication', 'string'],
  ['ssl', 'ssl', 'flag'],
  ['no-stored-procs', 'noStoredProcs', 'flag'],
  ['prepared', 'prepared', 'flag'],
];

/** CLI flag -> TPROC-C schema option (tprocc.schema: partitioning, stored procedures, storage engine). */
const SCHEMA_FLAGS: readonly (readonly [FlagName, string, Kind])[] = [
  ['stored-procs', 'storedProcs', 'flag'],
  ['partition', 'partition', 'flag'],
  ['storage-engine', 'storageEngine', 'string'],
];

/** CLI flag -> tprocc option. */
const TPROCC_FLAGS: readonly (readonly [FlagName, string, Kind])[] = [
  ['warehouses', 'warehouses', 'number'],
  ['build-vus', 'buildVus', 'number'],
  ['vus', 'vus', 'number'],
  ['driver', 'driver', 'string'],
  ['rampup', 'rampup', 'number'],
  ['duration', 'duration', 'number'],
  ['total-iterations', 'totalIterations', 'number'],
  ['keyandthink', 'keyAndThink', 'flag'],
  ['allwarehouse', 'allWarehouse', 'flag'],
  ['timeprofile', 'timeProfile', 'flag'],
  ['raiseerror', 'raiseError', 'flag'],
  ['verify', 'verify', 'flag'],
  ['user-delay', 'userDelayMs', 'number'],
  ['tc-refresh', 'tcRefreshSec', 'number'],
  ['workers', 'workers', 'number'],
  ['async-scale', 'asyncScale', 'flag'],
  ['async-clients', 'asyncClients', 'number'],
  ['async-delay', 'asyncDelayMs', 'number'],
  ['async-verbose', 'asyncVerbose', 'flag'],
  ['no-reconnect', 'reconnect', 'off'],
  ['max-tries', 'maxTries', 'number'],
  ['retry-on', 'retryOn', 'list'],
];

/** CLI flag -> tproch option (TPROC-H; --build-vus is shared with TPROC-C). */
const TPROCH_FLAGS: readonly (readonly [FlagName, string, Kind])[] = [
  ['scale', 'scaleFactor', 'number'],
  ['build-vus', 'buildVus', 'number'],
  ['mode', 'mode', 'string'],
  ['streams', 'streams', 'number'],
  ['query-sets', 'querySets', 'number'],
  ['refresh', 'refresh', 'flag'],
  ['update-sets', 'updateSets', 'number'],
  ['trickle', 'trickleMs', 'number'],
  ['dop', 'dop', 'number'],
  ['query-timeout', 'queryTimeoutSec', 'number'],
  ['raise-query-error', 'raiseQueryError', 'flag'],
  ['validation', 'validation', 'flag'],
  ['verbose', 'verbose', 'flag'],
];

/** CLI flag -> chbench option (CH-benCHmark's analytic streams; --dop, --query-timeout, --raise-query-error read as TPROC-H's do). */
const CHBENCH_FLAGS: readonly (readonly [FlagName, string, Kind])[] = [
  ['analytic-streams', 'analyticStreams', 'number'],
  ['dop', 'dop', 'number'],
  ['query-timeout', 'queryTimeoutSec', 'number'],
  ['raise-query-error', 'raiseQueryError', 'flag'],
];

/** CLI flag -> script option (the script workload; its scripts come from -f and --builtin). */
const SCRIPT_OPTION_FLAGS: readonly (readonly [FlagName, string, Kind])[] = [
  ['vus', 'vus', 'number'],
  ['rampup', 'rampup', 'number'],
  ['duration', 'duration', 'number'],
  ['workers', 'workers', 'number'],
  ['threads', 'threads', 'number'],
  ['scale', 'scale', 'number'],
  ['max-tries', 'maxTries', 'number'],
  ['retry-on', 'retryOn', 'list'],
];

/** The script options of a body: -f/--builtin scripts and the driver settings. */
function scriptOptions(f: Flags): Record<string, unknown> {
  const o = optionsOf(f, SCRIPT_OPTION_FLAGS);
  const scripts = scriptEntries(f as ScriptFlags);
  return scripts ? { ...o, scripts } : o;
}

/** A server field name (tprocc.vus, target.port, datagen.dir ...) -> the CLI flag that sets it. */
export const FIELD_FLAGS: Readonly<Record<string, string>> = Object.fromEntries([
  ...TARGET_FLAGS.map(([flag, key]) => [`target.${key}`, `--${flag}`]),
  ...TPROCC_FLAGS.map(([flag, key]) => [`tprocc.${key}`, `--${flag}`]),
  ...SCHEMA_FLAGS.map(([flag, key]) => [`tprocc.schema.${key}`, `--${flag}`]),
  ...TPROCH_FLAGS.map(([flag, key]) => [`tproch.${key}`, `--${flag}`]),
  ...CHBENCH_FLAGS.map(([flag, key]) => [`chbench.${key}`, `--${flag}`]),
  ...SCRIPT_OPTION_FLAGS.map(([flag, key]) => [`script.${key}`, `--${flag}`]),
  ['script.scripts', '--script'],
  ['tproch.explain', '--no-explain'],
  ['tprocc.keyThink', '--key-think'],
  ['tprocc.mix', '--mix'],
  ...TX_TYPES.map((t) => [`tprocc.mix.${t}`, '--mix']),
  ['workload', '--workload'],
  ['target.engine', '--db'],
  ['target.pool', '--connect-pool'],
  ['datagen.dir', '--dir'],
  ['datagen.workers', '--workers'],
  ['datagen.timestamp', '--timestamp'],
  ['seed', '--seed'],
  ['label', '--label'],
  ['profileId', '--profile-id'],
  ['metrics.ashBackgroundIdle', '--ash-background-idle'],
  ['metrics.ashScope', '--ash-scope'],
  ['placement', '--replicas'],
  ['placement.replicas', '--replicas'],
  ['placement.vus', '--replica-vus'],
  ...Object.entries(SHAPE_FIELD_FLAGS),
]);

const list = (v: string | boolean | undefined): string[] | undefined =>
  typeof v === 'string' ? v.split(',').map((x) => x.trim()).filter((x) => x !== '') : undefined;

const read = (flag: string, kind: Kind, v: string | boolean | undefined): unknown =>
  kind === 'number' ? num(flag, v) : kind === 'bool' ? bool(flag, v) : kind === 'off' ? (v ? false : undefined) : kind === 'list' ? list(v) : v;

/** Split a connection URL (postgres://u:p@h:5432/db, mysql://..., mssql://..., oracle://u:p@h:1521/service, db2://...). */
export function parseUrl(engine: EngineId, raw: string): Record<string, unknown> {
  const { form, example } = ENGINE_URL[engine];
  if (form === 'file') return { file: raw.startsWith(`${engine}:`) ? raw.slice(engine.length + 1).replace(/^\/\//, '') : raw };
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new SledgeError('SLEDGE_E_VALIDATION', `--url is not a URL: expected e.g. ${example}`, { field: '--url' });
  }
  const out: Record<string, unknown> = {};
  const dec = decodeURIComponent;
  if (form === 'connectString') {
    out['connectString'] = `${u.hostname}${u.port ? ':' + u.port : ''}${u.pathname || ''}`;
    if (u.username) out['user'] = dec(u.username);
    if (u.password) out['password'] = dec(u.password);
  } else {
    if (u.hostname) out['host'] = u.hostname;
    if (u.port) out['port'] = Number(u.port);
    if (u.username) out['user'] = dec(u.username);
    if (u.password) out['password'] = dec(u.password);
    const db = u.pathname.replace(/^\//, '');
    if (db) out['database'] = dec(db);
  }
  for (const [k, v] of u.searchParams) {
    const key = k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    out[key] = v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v;
  }
  return out;
}

/** Map CLI flags onto a POST /api/v1/jobs body. Validation of values happens on the server (one set of rules). */
export function jobBody(type: string, f: Flags): Record<string, unknown> {
  const db = (f.db as string | undefined) ?? 'sqlite';
  if (!(ENGINES as readonly string[]).includes(db)) {
    throw new SledgeError('SLEDGE_E_UNKNOWN_ENGINE', `--db ${JSON.stringify(db)} is not a known engine${didYouMean(db, ENGINES)}; choose one of ${ENGINES.join(', ')}`, { field: '--db' });
  }
  const engine = db as EngineId;
  const target: Record<string, unknown> = { engine, ...(f.url ? parseUrl(engine, f.url as string) : {}) };
  for (const [flag, key, kind] of TARGET_FLAGS) {
    const v = read(flag, kind, f[flag]);
    if (v !== undefined) target[key] = v;
  }
  if (typeof f['connect-pool'] === 'string') target['pool'] = connectPoolFromFile(f['connect-pool'], engine);
  const workload = (f.workload as string | undefined) ?? 'tprocc';
  const shapes = shapeOptions(f, workload);
  const body: Record<string, unknown> =
    workload === 'tproch'
      ? { type, workload, target, tproch: tprochOptions(f) }
      : workload === 'chbench'
      ? { type, workload, target, tprocc: tproccOptions(type, f), chbench: optionsOf(f, CHBENCH_FLAGS) }
      : workload === 'script'
      ? { type, workload, target, script: { ...scriptOptions(f), ...shapes } }
      : { type, target, tprocc: { ...tproccOptions(type, f), ...shapes } };
  if (workload !== 'tprocc' && workload !== 'tproch') body['workload'] = workload;
  const sf = f as ScriptFlags;
  if (workload !== 'script' && (sf.script?.length || sf.builtin?.length || f.threads !== undefined)) {
    const flag = sf.script?.length ? 'script' : sf.builtin?.length ? 'builtin' : 'threads';
    throw new SledgeError('SLEDGE_E_VALIDATION', `--${flag} is a script workload flag: add --workload script or remove it`, { field: `--${flag}` });
  }
  if (workload === 'tproch') refuseOthers(type, f, TPROCC_FLAGS, SCHEMA_FLAGS, 'TPROC-C');
  else if (workload === 'chbench') refuseOthers(type, f, TPROCH_FLAGS.filter(([x]) => !CHBENCH_FLAGS.some(([y]) => y === x)), [], 'TPROC-H');
  else if (workload === 'script') {
    const own = (x: FlagName) => SCRIPT_OPTION_FLAGS.some(([y]) => y === x);
    refuseOthers(type, f, TPROCC_FLAGS.filter(([x]) => !own(x)), SCHEMA_FLAGS, 'TPROC-C');
    refuseOthers(type, f, TPROCH_FLAGS.filter(([x]) => !own(x)), [], 'TPROC-H');
  } else {
    refuseOthers(type, f, TPROCH_FLAGS, [], 'TPROC-H');
    refuseOthers(type, f, CHBENCH_FLAGS.filter(([x]) => !TPROCH_FLAGS.some(([y]) => y === x)), [], 'CH-benCHmark');
  }
  if (type === 'datagen') {
    const datagen: Record<string, unknown> = {};
    if (f.dir !== undefined) datagen['dir'] = f.dir;
    datagen['workers'] = num('workers', f.workers) ?? 1;
    if (f.timestamp !== undefined) datagen['timestamp'] = f.timestamp;
    body['datagen'] = datagen;
  } else if (f.dir !== undefined || f.timestamp !== undefined) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `--${f.dir !== undefined ? 'dir' : 'timestamp'} applies only to "sledge datagen"`, { field: f.dir !== undefined ? '--dir' : '--timestamp' });
  }
  if (f['no-prepared']) target['prepared'] = false;
  const metrics: Record<string, unknown> = {};
  if (f['ash-background-idle']) metrics['ashBackgroundIdle'] = true;
  // The server checks the value ('database' | 'server') and names --ash-scope when it is wrong.
  if (f['ash-scope'] !== undefined) metrics['ashScope'] = f['ash-scope'];
  if (Object.keys(metrics).length) body['metrics'] = metrics;
  if (f.seed !== undefined) body['seed'] = num('seed', f.seed);
  if (f.label !== undefined) body['label'] = f.label;
  if (f['profile-id'] !== undefined) body['profileId'] = num('profile-id', f['profile-id']);
  const placement = placementFlags(f);
  if (placement) body['placement'] = placement;
  return body;
}

/** --replicas all|NAME,NAME and --replica-vus NAME=N,...: run the VUs on replicas (the server checks the rest). */
function placementFlags(f: Flags): Record<string, unknown> | undefined {
  const names = f.replicas;
  const vus = f['replica-vus'];
  if (names === undefined && vus === undefined) return undefined;
  const p: Record<string, unknown> = { on: 'replicas' };
  if (typeof names === 'string' && names !== 'all') p['replicas'] = names.split(',').map((s) => s.trim()).filter(Boolean);
  if (typeof vus === 'string') {
    const map: Record<string, number> = {};
    for (const part of vus.split(',')) {
      const m = /^\s*([A-Za-z0-9][A-Za-z0-9_-]*)=(\d+)\s*$/.exec(part);
      if (!m) throw new SledgeError('SLEDGE_E_VALIDATION', `--replica-vus ${JSON.stringify(vus)}: give NAME=VUS pairs, e.g. r1=4,r2=4`, { field: '--replica-vus' });
      map[m[1]!] = Number(m[2]);
    }
    p['vus'] = map;
  }
  return p;
}

/** The tprocc options of a body from the TPROC-C flags. */
function tproccOptions(type: string, f: Flags): Record<string, unknown> {
  const tprocc: Record<string, unknown> = {};
  for (const [flag, key, kind] of TPROCC_FLAGS) {
    // datagen: --workers are the file-writing workers (HammerDB dgset vu), not VU threads.
    if (type === 'datagen' && flag === 'workers') continue;
    const v = read(flag, kind, f[flag]);
    if (v !== undefined) tprocc[key] = v;
  }
  const schema: Record<string, unknown> = {};
  for (const [flag, key, kind] of SCHEMA_FLAGS) {
    const v = read(flag, kind, f[flag]);
    if (v !== undefined) schema[key] = v;
  }
  if (Object.keys(schema).length) tprocc['schema'] = schema;
  if (f['key-think'] !== undefined) tprocc['keyThink'] = keyThinkFlag(f['key-think']);
  if (f.mix !== undefined) tprocc['mix'] = mixFlag(f.mix);
  return tprocc;
}

/** --mix neworder=45,payment=43,...: the transaction mix weights, the types left out at 0 (--mix neworder=100 runs new orders only). */
function mixFlag(v: string | boolean): Record<string, unknown> {
  try {
    if (typeof v !== 'string') throw new Error('it needs a value');
    return parseMixSpec(v);
  } catch (e) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `--mix: ${(e as Error).message}`, { field: '--mix' });
  }
}

/** --key-think neworder=18:12,payment=3:12,...: TYPE=KEYING:THINK-MEAN seconds; the types left out keep TPC-C's times. */
function keyThinkFlag(v: string | boolean): Record<string, unknown> {
  try {
    if (typeof v !== 'string') throw new Error('it needs a value');
    return { ...defaultKeyThink(), ...parseKeyThinkSpec(v) };
  } catch (e) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `--key-think: ${(e as Error).message}`, { field: '--key-think' });
  }
}

/** The options a list of flags sets. */
function optionsOf(f: Flags, flags: readonly (readonly [FlagName, string, Kind])[]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [flag, key, kind] of flags) {
    const v = read(flag, kind, f[flag]);
    if (v !== undefined) o[key] = v;
  }
  return o;
}

/** The tproch options of a body from the TPROC-H flags. */
function tprochOptions(f: Flags): Record<string, unknown> {
  const tproch: Record<string, unknown> = {};
  for (const [flag, key, kind] of TPROCH_FLAGS) {
    const v = read(flag, kind, f[flag]);
    if (v !== undefined) tproch[key] = v;
  }
  if (f['no-explain']) tproch['explain'] = false;
  return tproch;
}

/** A flag of the other workload is refused, naming it, rather than silently ignored. */
function refuseOthers(type: string, f: Flags, lists: readonly (readonly [FlagName, string, Kind])[], more: readonly (readonly [FlagName, string, Kind])[], other: string): void {
  const own = new Set<string>(type === 'datagen' ? ['build-vus', 'workers'] : ['build-vus']);
  const extra: FlagName[] = other === 'TPROC-H' ? ['no-explain'] : [];
  for (const flag of [...lists.map(([x]) => x), ...more.map(([x]) => x), ...extra]) {
    if (own.has(flag) || f[flag] === undefined) continue;
    throw new SledgeError('SLEDGE_E_VALIDATION', `--${flag} is a ${other} flag: add --workload ${({ 'TPROC-H': 'tproch', 'CH-benCHmark': 'chbench' } as Record<string, string>)[other] ?? 'tprocc'} or remove it`, { field: `--${flag}` });
  }
}
