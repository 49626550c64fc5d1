import { accessSync, constants, statSync } from 'node:fs';
import os from 'node:os';
import type { JobStore } from '@sledge/jobstore';
import { isSecretKey, REDACTED } from '@sledge/protocol';
import { DATABASES, databaseByPrefix, keyName, SECTIONS, sectionOf, type Dict, type Section } from './dicts.js';
import { bindingChanges, bindSecret, secretFieldOf } from './secret-binding.js';
import { convert, describeConv, mappingOf } from './keymap.js';
import { allows, keyRule, refusal } from './keyrules.js';
import { failure, success, type Outcome, type Pairs } from './reply.js';
import { VU_OPTIONS, type HdbSession, type VuOption } from './state.js';
import { existingVus } from './vus.js';

/**
 * The settings verbs of HammerDB's legacy web service (hammerdb.md §2, §3.2):
 * dbset, diset, vuset, tcset, dgset, loadscript, clearscript, customscript,
 * echo. Each takes the parsed body and answers HammerDB's messages.
 */
export interface Ctx {
  s: HdbSession;
  store: JobStore;
}

export const TPROCH_NO_DATAGEN = 'datagenrun writes TPROC-C files only: dbset bm TPC-C (or TPROC-C) to generate data';
export const VUS_EXIST = 'Virtual Users exist, destroy with vudestroy before changing settings';

/** HammerDB prints passwords; Sledge never does. */
export const isSecretDictKey = (key: string): boolean => isSecretKey(key) || /pass/i.test(key);
const shown = (key: string, value: string) => (isSecretDictKey(key) ? REDACTED : value);

/** A dict with every password replaced by "********". */
export function maskDict(d: Dict): Dict {
  return Object.fromEntries(Object.entries(d).map(([s, kv]) => [s, Object.fromEntries(Object.entries(kv).map(([k, v]) => [k, shown(k, v)]))])) as Dict;
}

/** Workloads a database offers (every one ships TPROC-C and TPROC-H in Sledge). */
const workloads = (prefix: string) => databaseByPrefix(prefix)?.workloads ?? ['TPC-C'];

export function dbset({ s }: Ctx, pairs: Pairs): Outcome {
  if (pairs.length !== 1) return failure('Incorrect number of parameters to dbset key value');
  const [key, val] = pairs[0]!;
  if (key === 'db') {
    const db = DATABASES.find((d) => d.prefix === val);
    if (!db) return failure(`Unknown prefix ${val}, choose one from ${DATABASES.map((d) => d.prefix).join(' ')}`);
    s.prefix = db.prefix;
    if (!workloads(db.prefix).includes(s.bm)) s.bm = 'TPC-C';
    return success(`Database set to ${db.name}`);
  }
  if (key === 'bm') {
    const up = val.toUpperCase();
    const internal = up.replace(/^TPROC-/, 'TPC-');
    if (!/^(TPC|TPROC)-[CH]$/.test(up) || !workloads(s.prefix).includes(internal)) {
      return failure(`Unknown benchmark ${up}, choose one from ${workloads(s.prefix).join(' ')}`);
    }
    s.bm = internal as HdbSession['bm'];
    return success(`Benchmark set to ${up} for ${s.db.name}`);
  }
  return failure('Invalid option to dbset key value');
}

/** diset: names "dict", "key", "value" when given, else the three values in order (as HammerDB reads them). */
export function diset({ s }: Ctx, pairs: Pairs): Outcome {
  if (pairs.length !== 3) return failure('Incorrect number of parameters to diset dict key value');
  const named = new Map(pairs);
  const [d, key, val] = named.has('dict') && named.has('key') && named.has('value') ? [named.get('dict')!, named.get('key')!, named.get('value')!] : (pairs.map((p) => p[1]) as [string, string, string]);
  const dict = s.dict;
  const name = s.db.name;
  const section = (SECTIONS as readonly string[]).includes(d) ? dict[d as keyof Dict] : undefined;
  if (!section) return failure(`Dictionary "${d}" for ${name} does not exist`);
  if (!Object.prototype.hasOwnProperty.call(section, key)) {
    const elsewhere = sectionOf(dict, key);
    return failure(`Dictionary "${d}" for ${name} exists but key "${key}" doesn't${elsewhere ? `: it is in dictionary "${elsewhere}"` : ''}`);
  }
  const previous = section[key]!;
  const password = secretFieldOf(s.prefix, s.db.engine, key) !== undefined;
  // A password set again after its connection changed is bound anew: that is a change, not "no change made".
  const rebind = password && bindingChanges(s, s.prefix, d as Section, key).length > 0;
  if (previous === val && !rebind) return success(`Value ${shown(key, val)} for ${d}:${key} is the same as existing value ${shown(key, previous)}, no change made`);
  if (key === keyName(s.prefix, 'driver')) {
    if (val !== 'test' && val !== 'timed') return failure('Error: Driver script must be either "test" or "timed"');
    section[key] = val;
    s.script = null;
    return success(`Set driver script to ${val}, clearing Script, reload script to activate new setting`);
  }
  const refused = checkDictValue(s.prefix, s.db.engine, d, key, val);
  if (refused) return failure(refused);
  section[key] = val;
  // The password goes only to the connection it is set with now (secret-binding.ts).
  if (password) bindSecret(s, s.prefix, d as Section, key);
  return success(`Changed ${d}:${key} from ${shown(key, previous)} to ${shown(key, val)} for ${name}`);
}

/** A dict key's suffix (keyName's inverse): Oracle's keys carry no prefix except ora_driver and ora_timeprofile. */
export function suffixOf(prefix: string, key: string): string {
  return key.startsWith(`${prefix}_`) ? key.slice(prefix.length + 1) : key;
}

/**
 * Why a dict value is refused, or null: a mapped key's value must convert to
 * its Sledge field's type; an unmapped key must be a value its rule accepts
 * (keyrules.ts). The driver key is checked by diset itself.
 */
export function checkDictValue(prefix: string, engine: HdbSession['db']['engine'], section: string, key: string, val: string): string | null {
  const mapping = mappingOf(prefix, engine, key);
  if (mapping) return convert(val, mapping.conv) === undefined ? `Value ${shown(key, val)} for ${section}:${key} must be ${describeConv(mapping.conv)}` : null;
  const rule = keyRule(prefix, suffixOf(prefix, key));
  if (rule) return allows(rule, val) ? null : refusal(section, key, rule, shown(key, val));
  return `Value ${shown(key, val)} for ${section}:${key} is not supported: Sledge has no setting for ${key}`;
}

const isInt = (v: string) => /^[+-]?\d+$/.test(v.trim());

export function vuset(ctx: Ctx, pairs: Pairs): Outcome {
  if (pairs.length !== 1) return failure('Incorrect number of parameters to vuset key value');
  const [key, raw] = pairs[0]!;
  const opt = VU_OPTIONS.find(([k]) => k === key);
  if (!opt) return failure('Invalid option to vuset key value');
  if (existingVus(ctx.s, ctx.store)) return failure(VUS_EXIST);
  const label = opt[1];
  let val = raw.trim();
  const flag = (what: string) => (val === '0' || val === '1' ? null : `${what} must be 0 or 1`);
  let error: string | null = null;
  let message = `${label} set to ${val}`;
  switch (key as VuOption) {
    case 'vu':
      if (val === 'vcpu') val = String(os.availableParallelism());
      error = !isInt(val) ? 'The number of virtual users must be an integer' : Number(val) < 1 ? 'The number of virtual users must be 1 or greater' : null;
      message = `Virtual users set to ${val}`;
      break;
    case 'delay':
    case 'repeat':
      error = !isInt(val) ? `${label} must be an integer` : Number(val) < 0 ? `${label} must be 0 or greater` : null;
      break;
    case 'iterations':
      error = !isInt(val) ? 'Iterations must be an integer' : Number(val) < 1 ? 'Iterations must be 1 or greater' : null;
      message = `iterations set to ${val}`;
      break;
    case 'logtotemp':
      // The VUs' output also goes to <temp>/hammerdb.log (logtotemp.ts), written by the server that runs them.
      error = flag('Log Output');
      break;
    case 'timestamps':
      error = flag('Log timestamps');
      message = `Log timestamps set to ${val}`;
      break;
    default:
      error = flag(label);
  }
  if (error) return failure(error);
  ctx.s.vu[key as VuOption] = String(Number(val));
  return success(message);
}

export function tcset({ s }: Ctx, pairs: Pairs): Outcome {
  if (pairs.length !== 1) return failure('Incorrect number of parameters to tcset key value');
  const [key, val] = pairs[0]!;
  if (key !== 'refreshrate') return failure('Invalid option to tcset key value');
  if (!isInt(val)) return failure('Refresh rate must be an integer more than 0 secs and less than 60 secs');
  const n = Number(val);
  if (n <= 0 || n >= 60) return failure('Refresh rate must be more than 0 secs and less than 60 secs');
  s.tc['tc_refresh_rate'] = String(n);
  return success(`Transaction Counter refresh rate set to ${n}`);
}

const SCALE_FACTORS = ['1', '10', '30', '100', '300', '1000', '3000', '10000', '30000', '100000'];

export function dgset(ctx: Ctx, pairs: Pairs): Outcome {
  if (pairs.length !== 1) return failure('Incorrect number of parameters to dgset key value');
  const [key, raw] = pairs[0]!;
  const val = raw.trim();
  if (!['vu', 'scale_fact', 'warehouse', 'directory'].includes(key)) return failure('Invalid option to dgset key value');
  if (existingVus(ctx.s, ctx.store)) return failure(VUS_EXIST);
  const dg = ctx.s.dg;
  const tooManyVus = (vu: number, w: number) => `Build virtual users ${vu} must be less than or equal to number of warehouses ${w}`;
  switch (key) {
    case 'vu': {
      if (!isInt(val) || Number(val) < 1 || Number(val) > 1024) return failure('The number of virtual users must be a positive integer less than 1024');
      if (ctx.s.bm === 'TPC-C' && Number(val) > Number(dg.warehouse)) return failure(tooManyVus(Number(val), Number(dg.warehouse)));
      dg.vu = String(Number(val));
      return success(`Set virtual users to ${dg.vu} for data generation`);
    }
    case 'scale_fact':
      if (!SCALE_FACTORS.includes(val)) return failure(`Scale Factor must be a value in ${SCALE_FACTORS.join(' ')}`);
      dg.scale_fact = val;
      return success(`Set Scale Factor to ${val} for data generation`);
    case 'warehouse': {
      if (!isInt(val) || Number(val) < 1 || Number(val) > 100000) return failure('The number of warehouses must be a positive integer less than or equal to 100000');
      if (Number(dg.vu) > Number(val)) return failure(tooManyVus(Number(dg.vu), Number(val)));
      dg.warehouse = String(Number(val));
      return success(`Set warehouses to ${dg.warehouse} for data generation`);
    }
    default: {
      let ok = false;
      try {
        ok = statSync(raw).isDirectory();
        accessSync(raw, constants.W_OK);
      } catch {
        ok = false;
      }
      if (!ok) return failure(`Files cannot be written to chosen directory you must create ${raw} before generating data`);
      dg.directory = raw;
      return success(`Set directory to ${raw} for data generation`);
    }
  }
}

export function loadscript({ s }: Ctx): Outcome {
  if (s.bm === 'TPC-H') {
    s.script = { prefix: s.prefix, driver: 'timed' };
    return success('script loaded');
  }
  const driver = s.dict.tpcc?.[keyName(s.prefix, 'driver')] === 'test' ? 'test' : 'timed';
  s.script = { prefix: s.prefix, driver };
  return success('script loaded');
}

export function clearscript({ s }: Ctx): Outcome {
  s.script = null;
  return success('Script cleared');
}

/** echo {"type":"success|error","key":"message","value":"..."}: the CLI used it to print messages through the service. */
export function echo(_: Ctx, pairs: Pairs): Outcome {
  if (pairs.length !== 3) return failure('Incorrect number of parameters to echo');
  const [type, key, value] = pairs.map((p) => p[1]) as [string, string, string];
  return { [type]: { [key]: value } };
}

