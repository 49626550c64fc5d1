import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, JOB_TYPES, TARGET_SCHEMAS, TproccOptions, isTerminal } from '@sledge/protocol';
import { buildApp, type SledgeApp } from '../dist/app.js';
import { waitJob } from './helpers.js';

/**
 * Property-based fuzzing of every route in the OpenAPI document (REST under
 * /api/v1, /metrics and the HammerDB command API at the root), in process
 * through inject(). Requests carry malformed JSON, wrong types, huge and deep
 * bodies, long strings, unicode, NULs, path tricks and injection strings.
 *
 * Properties, for every request:
 * - no 5xx;
 * - no stack trace in the body (no "    at f (file:1:2)" frame, no path of this repository,
 *   no text of a JavaScript or SQLite error such as "Maximum call stack size exceeded");
 * - nothing logged at warn or above that is not a SledgeError;
 * - a refusal (any 4xx, or a HammerDB {"error":...} envelope) changes nothing:
 *   the job ids, the saved configurations, the share links, the HammerDB
 *   session (its print pages) and the files under the data directory are as before.
 *
 * Only SQLite work can start: every other engine's port in a request that can
 * create a job points at a closed loopback port, hosts stay on loopback, and
 * file paths stay under this test's directory. A job a request did create is
 * stopped at once. SEED and RUNS are fixed so a failure replays exactly
 * (SLEDGE_FUZZ_SEED / SLEDGE_FUZZ_RUNS override them for exploring).
 *
 * A second pass (BODY_RUNS requests, 10,000 with the first) aims at the
 * parsers behind bodies: connect pool XML (POST /api/v1/pools/import, PUT
 * /api/v1/pools/hammerdb/{prefix}: valid files mutated with bad references,
 * declarations, deep or dense markup, truncation ...) and the HammerDB
 * verbs' bodies (dbset, diset, vuset, tcset, dgset, giset, loadscript,
 * clearscript, customscript with mutated driver scripts, savescript with
 * hostile names, custommonitor, jobscmd ...).
 */
const SEED = Number(process.env['SLEDGE_FUZZ_SEED'] ?? 0x15f022);
const RUNS = Number(process.env['SLEDGE_FUZZ_RUNS'] ?? 3000);
const BODY_RUNS = Number(process.env['SLEDGE_FUZZ_BODY_RUNS'] ?? 7000);

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const STACK_FRAME = /^\s+at .+(:\d+:\d+\)?|\(native\)|\(<anonymous>\))$/m;
/** Text of JavaScript's own errors: a body that carries it let an internal failure through as if it were an answer. */
const ENGINE_ERROR = /Maximum call stack|Cannot read properties of|Cannot convert|is not a function|is not iterable|undefined is not|Unexpected token|Invalid character in header|ERR_[A-Z_]{4,}|SQLITE_[A-Z]{4,}/;
/** Ports of real database servers on this machine (never reached by a request that can start a job). */
const REAL_PORTS = new Set([5432, 3306, 3307, 1433, 1521, 50000]);

let s: SledgeApp;
let root: string;
let dataDir: string;
let closedPort: number;
/** The fixture run's job id (jobscmd bodies name it). */
let knownJob = '';
const log: { level: number; msg?: string; err?: { type?: string; message?: string } }[] = [];

// ---------------------------------------------------------------- values

const PATH_TRICKS = [
  '..', '.', '../..', '../../../../etc', '%2e%2e', '%2e%2e%2f%2e%2e', '..%2f..%2f', '%252e%252e%252f', '..%5c..%5c', '..\\..\\x', '%00', 'a%00b', 'x%2fy',
  '%2F', '%ED%A0%80', '%C0%AF', '%C0%AE%C0%AE/', '%FF', '....//....//', 'a/./b', '/dev/null/x', '/proc/no-such-dir/x', 'con', 'nul', 'aux.txt', '~', '~root', 'fz\u0000dir', 'fz dir', 'fz\ndir', '\u202efz',
];
const INJECTIONS = [
  "' OR '1'='1", "'; DROP TABLE job; --", '" OR ""="', '1; SELECT pg_sleep(10)', '$(touch /tmp/sledge-pwn)', '`id`', '| cat /etc/passwd', '&& reboot', '${7*7}', '#{7*7}',
  '{{7*7}}', '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', '\r\nSet-Cookie: sledge=1', '%0d%0aX-Injected: 1', '__proto__', 'constructor', 'prototype', 'toString',
  'hasOwnProperty', 'NaN', 'Infinity', '-Infinity', 'null', 'undefined', 'true', '[object Object]', '%s%s%s%n', '\\', '\\u0000', '%', '%%', '%zz', '&', '=', '?', '#', ';',
];
const UNICODE = ['é', 'İstanbul', 'ß', '日本語', '😀', '👩‍👩‍👧', '\u0000', '\u0000\u0000', 'a\u0000b', '\u0007', '\u001b[31m', '\u202e', '\ufeff', '\u200b', '\ud800', '\udfff', '\uffff', 'Ω'.repeat(300)];

const fuzzString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ maxLength: 20 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 10 }), weight: 1 },
  { arbitrary: fc.constantFrom(...PATH_TRICKS, ...INJECTIONS, ...UNICODE), weight: 6 },
  { arbitrary: fc.tuple(fc.constantFrom('a', 'é', '\u0000', '😀', '%', '../'), fc.integer({ min: 100, max: 70_000 })).map(([c, n]) => c.repeat(n)), weight: 1 },
  { arbitrary: fc.constantFrom('', ' ', 'tpcc', 'sqlite', 'postgresql', 'pg', 'json', 'csv', 'output', 'tcount', '0', '1', '-1', '1e999', '0x1f', '010', '1.5', '99999999999999999999'), weight: 4 },
);
const fuzzNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constantFrom(0, -0, 1, -1, 2 ** 31, 2 ** 32, 2 ** 53, -(2 ** 53), 1e308, 5e-324, 0.5, 65535, 65536, 100_000, 100_001),
);
const fuzzScalar: fc.Arbitrary<unknown> = fc.oneof(fuzzString, fuzzNumber, fc.boolean(), fc.constant(null));
const fuzzValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fuzzScalar, weight: 8 },
  { arbitrary: fc.array(fuzzScalar, { maxLength: 4 }), weight: 1 },
  { arbitrary: fc.dictionary(fuzzString, fuzzScalar, { maxKeys: 4 }), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 4 }), weight: 1 },
);

/** `arb` once in `n` draws, else null. */
const rarely = <T>(arb: fc.Arbitrary<T>, n: number): fc.Arbitrary<T | null> => fc.oneof({ arbitrary: fc.constant(null), weight: n - 1 }, { arbitrary: arb, weight: 1 });

interface Schemaish {
  type?: string;
  default?: unknown;
  anyOf?: { const?: unknown }[];
  minimum?: number;
  maximum?: number;
}
/** Values a schema property accepts: its default, its enum members, its bounds. */
function plausible(p: Schemaish, extra: unknown[] = []): fc.Arbitrary<unknown> {
  const values: unknown[] = [...extra];
  if (p.default !== undefined) values.push(p.default);
  for (const a of p.anyOf ?? []) if (a.const !== undefined) values.push(a.const);
  if (typeof p.minimum === 'number') values.push(p.minimum);
  if (typeof p.maximum === 'number') values.push(p.maximum);
  return values.length ? fc.constantFrom(...values) : fuzzString;
}
/**
 * A valid-looking object after a TypeBox object schema (each property there
 * or not, with a plausible value), then 0 to 2 mutations: a property, or an
 * unknown one, set to anything. Most requests are thus refused for exactly
 * one reason, deep inside the validation, and some are accepted.
 */
function objectOf(schema: unknown, opts: { fixed?: Record<string, unknown>; extra?: Record<string, unknown[]> } = {}): fc.Arbitrary<Record<string, unknown>> {
  const props = (schema as { properties: Record<string, Schemaish> }).properties;
  const names = Object.keys(props).filter((k) => !(opts.fixed && k in opts.fixed));
  const base = fc.record(Object.fromEntries(names.map((k) => [k, plausible(props[k]!, opts.extra?.[k])])), { requiredKeys: [] });
  const mutation = fc.oneof(
    // set a property (or an unknown one) to anything
    { arbitrary: fc.tuple(fc.oneof({ arbitrary: fc.constantFrom(...names), weight: 4 }, { arbitrary: fuzzString, weight: 1 }), fuzzValue, fc.constant(false)), weight: 3 },
    // taint a plausible string: a control character, a quote or an escape in the middle of it
    { arbitrary: fc.tuple(fc.constantFrom(...names), fc.constantFrom('\u0000', '\u0000', '\u0000', '\n', '\r\n', "'", '"', '%00', '\\', ' ', '\u202e', '$('), fc.constant(true)), weight: 2 },
  );
  return fc.tuple(base, fc.array(mutation, { maxLength: 2 })).map(([o, muts]) => {
    const r: Record<string, unknown> = { ...o, ...opts.fixed };
    for (const [k, v, taint] of muts) {
      const was = r[k] ?? props[k]?.default;
      if (!taint) r[k] = v;
      else if (typeof was === 'string') r[k] = was.slice(0, was.length >> 1) + String(v) + was.slice(was.length >> 1);
    }
    return r;
  });
}

const engineArb = fc.oneof({ arbitrary: fc.constant('sqlite'), weight: 4 }, { arbitrary: fc.constantFrom(...ENGINES), weight: 3 }, { arbitrary: fuzzValue, weight: 1 });
const targetArb: fc.Arbitrary<unknown> = fc.oneof(
  {
    arbitrary: fc
      .oneof({ arbitrary: fc.constant('sqlite'), weight: 2 }, { arbitrary: fc.constantFrom(...ENGINES), weight: 3 })
      .chain((e) => objectOf(TARGET_SCHEMAS[e], { fixed: { engine: e }, extra: { file: ['fixture.sqlite', 'fz.sqlite', 'sub/fz.sqlite'], host: ['localhost', '::1'] } })),
    weight: 12,
  },
  { arbitrary: engineArb.map((engine) => ({ engine })), weight: 1 },
  { arbitrary: fuzzValue, weight: 1 },
);
/** Sizes that are valid but would make a long job are brought down to 1 or 2 (out-of-range values stay: they are refused). */
function small(o: Record<string, unknown>): Record<string, unknown> {
  const r = { ...o };
  const cap: Record<string, [number, number]> = { warehouses: [4, 100_000], buildVus: [2, 1024], vus: [2, 10_000], totalIterations: [1000, 2_000_000_000], asyncClients: [2, 1e9], duration: [0.1, 10080], rampup: [0, 10080] };
  for (const [k, [max, limit]] of Object.entries(cap)) {
    const v = r[k];
    if (typeof v === 'number' && v > max && v <= limit) r[k] = k === 'duration' ? 0.05 : k === 'rampup' ? 0 : 1;
  }
  return r;
}
const tproccArb = fc.oneof({ arbitrary: objectOf(TproccOptions).map(small), weight: 8 }, { arbitrary: fuzzValue, weight: 1 });
const datagenArb = fc.record({ dir: fc.oneof(fc.constantFrom('dg1', 'dg2/sub', '/dev/null/x', '/proc/no-such-dir/x'), fuzzString), workers: fc.oneof(fc.constantFrom(1, 2), fuzzValue) }, { requiredKeys: [] });
const jobBody = fc
  .tuple(
    fc.record(
      {
        type: fc.constantFrom(...JOB_TYPES),
        workload: fc.constant('tprocc'),
        target: targetArb,
        tprocc: tproccArb,
        seed: fc.nat(),
        label: fuzzString,
        profileId: fc.nat(3),
        configId: fc.nat(4),
        datagen: datagenArb,
      },
      { requiredKeys: ['type', 'target'] },
    ),
    fc.array(fc.tuple(fc.constantFrom('type', 'workload', 'target', 'tprocc', 'seed', 'label', 'profileId', 'metrics', 'configId', 'datagen', 'extra'), fuzzValue), { maxLength: 1 }),
  )
  .map(([b, muts]) => {
    const r: Record<string, unknown> = { ...b };
    for (const [k, v] of muts) r[k] = v;
    return r;
  });
/** Saved configurations: today's shape (workload and its options) and the older one (tprocc). */
const configName = fc.oneof(fc.constant('fuzz config'), fuzzString, fuzzValue);
const configBody = fc.oneof(
  fc.record({ name: configName, target: targetArb, workload: fc.oneof(fc.constantFrom('tprocc', 'tproch', 'chbench', 'tpch'), fuzzValue), options: tproccArb }, { requiredKeys: ['name', 'target'] }),
  fc.record({ name: configName, target: targetArb, tprocc: tproccArb }, { requiredKeys: ['name', 'target'] }),
);
const targetBody = fc.record({ target: targetArb, configId: fc.oneof(fc.nat(4), fuzzValue) }, { requiredKeys: ['target'] });

/** HammerDB settings verbs and the keys they know (dict keys are read from the server at setup). */
const hdbKeys: { dict: string; key: string }[] = [];
const HDB_DBS = ['ora', 'mssqls', 'db2', 'mysql', 'pg', 'maria', 'sqlite', 'oracle', 'postgres', 'PG', 'tpch'];
const hdbBody = (verb: string): fc.Arbitrary<unknown> => {
  const v = fc.oneof(fuzzString, fuzzNumber.map(String), fc.constantFrom('1', '0', '2', 'test', 'timed', 'true', 'false', 'vcpu', 'TPC-C', 'TPROC-C', 'TPC-H'));
  switch (verb) {
    case 'dbset':
      return fc.oneof(fc.record({ db: fc.oneof(fc.constantFrom(...HDB_DBS), v) }), fc.record({ bm: v }), fc.dictionary(fuzzString, v, { maxKeys: 3 }));
    case 'diset':
      return fc.oneof(
        fc.tuple(fc.nat(), v).map(([i, value]) => {
          const k = hdbKeys[i % hdbKeys.length]!;
          return { dict: k.dict, key: k.key, value };
        }),
        fc.record({ dict: fc.oneof(fc.constantFrom('connection', 'tpcc', 'tpch'), v), key: v, value: v }, { requiredKeys: [] }),
      );
    case 'vuset':
      return fc.dictionary(fc.oneof(fc.constantFrom('vu', 'delay', 'repeat', 'iterations', 'showoutput', 'logtotemp', 'unique', 'nobuff', 'timestamps'), fuzzString), v, { minKeys: 0, maxKeys: 2 });
    case 'tcset':
      return fc.dictionary(fc.oneof(fc.constant('refreshrate'), fuzzString), v, { maxKeys: 2 });
    case 'dgset':
      return fc.dictionary(fc.oneof(fc.constantFrom('vu', 'warehouse', 'scale_fact', 'directory'), fuzzString), v, { maxKeys: 2 });
    case 'customscript':
      return fc.oneof({ arbitrary: fc.record({ script: scriptArb }), weight: 6 }, { arbitrary: fc.dictionary(fuzzString, fc.oneof(scriptArb, v), { maxKeys: 2 }), weight: 1 });
    case 'savescript':
      return fc.oneof({ arbitrary: fc.record({ file: fc.oneof(fc.constantFrom(...SAVE_NAMES), fuzzString) }), weight: 6 }, { arbitrary: fc.dictionary(fuzzString, v, { maxKeys: 2 }), weight: 1 });
    case 'custommonitor':
      return fc.dictionary(fc.oneof(fc.constant('type'), fuzzString), fc.oneof(fc.constantFrom('test', 'timed'), v), { maxKeys: 2 });
    case 'giset':
      return fc.record({ dict: fc.oneof(fc.constantFrom('commandline', 'theme', 'virtual_user_options', 'timeprofile'), v), key: fc.oneof(fc.constantFrom('keepalive_margin', 'scaletheme', 'virtual_users', 'xt_unique_log_name'), v), value: v }, { requiredKeys: [] });
    case 'jobscmd':
      return fc.oneof({ arbitrary: fc.record({ args: fc.array(fc.oneof(fc.constantFrom(...JOBS_WORDS), fc.constantFrom('KNOWN_JOB'), v), { maxLength: 4 }) }), weight: 6 }, { arbitrary: fuzzValue, weight: 1 });
    default:
      return fc.dictionary(fuzzString, v, { maxKeys: 3 });
  }
};


/** Connect pool XML: a valid file of some engine (values from the fuzzer, escaped or not), then 0 to 3 mutations. */
const POOL_PREFIXES = ['pg', 'maria', 'mysql', 'mssqls', 'db2', 'ora', 'sqlite', 'PG', 'x', ''];
const POOL_KEYS = ['host', 'port', 'user', 'pass', 'dbase', 'sslmode', 'socket', 'ssl', 'superuserpass', 'uid', 'server', 'bogus'];
const XML_SNIPPETS = [
  '&#99999999;', '&#0;', '&#x110000;', '&#xD800;', '&#xFFFE;', '&#;', '&#x;', '&bogus;', '&constructor;', '&__proto__;', '&', '&amp', '<', '>', ']]>', '<![CDATA[', '<![CDATA[x]]>',
  '<!--', '-->', '<!-- c -->', '<?', '<?xml version="1.0"?>', '<?pi x?>', '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>', '<!ENTITY x SYSTEM "file:///etc/passwd">',
  '</c1>', '<c1>', '</connections>', '<connections>', '</connpool>', '<connpool>', '<a b="1">', "<a b='<'>", '<a b=1>', '<a b>', '<a/>', '</ a>', '< a>', '<1a>', '<a\u0000>',
  '\u0000', '\u0001', '\ud800', '\uffff', '\r\n', '\n', '\t', '"', "'", '%00', '&#x1F600;', '&lt;&gt;&quot;&apos;', '&#10;', '&#13;',
];
const xmlValue = fc.oneof(fuzzString.map((v) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;')), fuzzString, fc.constantFrom('5432', '0', '99999', '-1', 'true', 'x'));
const poolXmlArb: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...POOL_PREFIXES),
    fc.array(fc.array(fc.tuple(fc.constantFrom(...POOL_KEYS), xmlValue), { maxLength: 6 }), { minLength: 0, maxLength: 4 }),
    fc.array(fc.tuple(fc.constantFrom('neworder', 'payment', 'delivery', 'stocklevel', 'orderstatus', '__proto__', 'constructor', 'x'), fc.constantFrom('c1 c2', 'c1', '', 'zz'), fc.constantFrom('round_robin', 'random', 'first_named', 'bogus', '')), { maxLength: 3 }),
    fc.array(
      fc.oneof(
        { arbitrary: fc.tuple(fc.nat(), fc.constantFrom(...XML_SNIPPETS)).map(([at, text]) => ({ at, text, cut: false })), weight: 6 },
        { arbitrary: fc.tuple(fc.nat(), fc.oneof(fc.integer({ min: 14, max: 40 }), fc.integer({ min: 1000, max: 20_000 }))).map(([at, n]) => ({ at, text: '<d>'.repeat(n) + '</d>'.repeat(n % 3 === 0 ? n : 0), cut: false })), weight: 1 },
        { arbitrary: fc.tuple(fc.nat(), fc.integer({ min: 100, max: 60_000 })).map(([at, n]) => ({ at, text: '<n/>'.repeat(n), cut: false })), weight: 1 },
        { arbitrary: fc.nat().map((at) => ({ at, text: '', cut: true })), weight: 1 },
      ),
      { maxLength: 3 },
    ),
  )
  .map(([prefix, conns, sprocs, muts]) => {
    const p = prefix ? `${prefix}_` : '';
    // Hosts stay on loopback and ports closed: a stored file is what a later vurun with <prefix>_connect_pool true connects to.
    const safe = (k: string, v: string) => (/^(host|server)$/.test(k) ? '127.0.0.1' : k === 'port' ? String(closedPort) : k === 'socket' ? join(root, 'no.sock') : v);
    const connections = conns.map((kv, i) => `<c${i + 1}>${kv.map(([k, v]) => `<${p}${k}>${safe(k, v)}</${p}${k}>`).join('')}</c${i + 1}>`).join('\n');
    const ops = sprocs.map(([op, names, policy]) => `<${op}><connections>${names}</connections><policy>${policy}</policy></${op}>`).join('');
    let xml = `<?xml version="1.0"?>\n<connpool>\n<connections>\n${connections}\n</connections>\n<sprocs>${ops}</sprocs>\n</connpool>\n`;
    for (const m of muts) {
      const at = m.at % (xml.length + 1);
      xml = m.cut ? xml.slice(0, at) : xml.slice(0, at) + m.text + xml.slice(at);
    }
    return xml;
  });
const poolImportBody = fc.record({ xml: fc.oneof({ arbitrary: poolXmlArb, weight: 8 }, { arbitrary: fuzzValue, weight: 1 }), engine: fc.oneof(fc.constantFrom('postgresql', 'mariadb', 'mysql', 'mssql', 'oracle', 'db2', 'sqlite'), fuzzValue), target: targetArb }, { requiredKeys: ['xml'] });
const poolPutBody = fc.record({ xml: fc.oneof({ arbitrary: poolXmlArb, weight: 8 }, { arbitrary: fuzzValue, weight: 1 }) }, { requiredKeys: [] });

/** HammerDB driver scripts: a generated-looking #EDITABLE OPTIONS block with fuzzed set lines, hostile values and stray Tcl. */
const SCRIPT_VARS = ['library', 'mode', 'host', 'port', 'sslmode', 'user', 'password', 'db', 'rampup', 'duration', 'total_iterations', 'raiseerror', 'keyandthink', 'allwarehouses', 'connect', 'systemconnect', 'file', 'total_querysets', 'scale_factor', 'bogus'];
const TCL_VALUES = ['"x"', '{a b}', 'plain', '"; exec touch /tmp/sledge-fuzz-pwn ;"', '[exec touch /tmp/sledge-fuzz-pwn]', '$env(HOME)', '{unbalanced', 'x}', '"unterminated', '\\', '{*}{a b}', '"a\\"b"', '{}', '""', 'Pgtcl', 'Local', 'tpcc/pw@db', '2;', '"5" extra', '{a}b'];
const scriptLine = fc.oneof(
  { arbitrary: fc.tuple(fc.constantFrom(...SCRIPT_VARS), fc.oneof(fc.constantFrom(...TCL_VALUES), fuzzString.map((v) => `"${v}"`), fuzzString.map((v) => `{${v}}`), fuzzString), fc.constantFrom(' ;# comment', ';#c', '', ' ; set y 1', ' extra')).map(([n, v, c]) => `set ${n} ${v}${c}`), weight: 8 },
  { arbitrary: fc.constantFrom('puts hello', 'proc x {} {}', 'if 1 {', '}', '# a comment', '', 'set', 'set x', '#EDITABLE OPTIONS'), weight: 2 },
  { arbitrary: fuzzString, weight: 1 },
);
const scriptArb = fc
  .tuple(fc.array(scriptLine, { maxLength: 12 }), fc.boolean(), fc.boolean())
  .map(([lines, open, close]) => ['#!/usr/local/bin/tclsh8.6', ...(open ? ['#EDITABLE OPTIONS##########'] : []), ...lines, ...(close ? ['#EDITABLE OPTIONS##########'] : []), 'puts done'].join('\n'));
const SAVE_NAMES = ['fz', 'fz.tcl', 'fz.txt', 'a.b.c', '.hidden', '..', '.', 'x'.repeat(201), 'fz dir', 'fz/x', 'fz\\x', 'fz\u0000', '-', '_', 'CON', 'con.tcl'];
/** `jobs` words (not delete: the fixture job stays for every request). */
const JOBS_WORDS = ['result', 'timestamp', 'joblist', 'profileid', 'format', 'disable', 'profile', 'diff', 'save', 'status', 'db', 'bm', 'dict', 'timing', 'tcount', 'metrics', 'system', 'getchart', 'text', 'JSON', 'all', '0', '1', 'vu=1', 'true'];

// ---------------------------------------------------------------- requests

interface Route {
  path: string;
  methods: string[];
  hasBody: boolean;
}
type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; text: string }
  | { kind: 'deep'; depth: number; open: '{' | '[' }
  | { kind: 'huge'; bytes: number };
interface FuzzRequest {
  route: number;
  method: string | null;
  params: ParamValue[];
  pathTrick: number | null;
  query: [string, string][] | string | null;
  body: Body;
  contentType: string | null;
}
type ParamValue = { known: number } | { text: string; encode: boolean };

const MALFORMED = [
  '{', '}', '{"a":}', '{"a" 1}', '[1,]', '{,}', "{'a':1}", '{"a":1}}', 'nul', 'tru', '01', '1e', '"\\u12"', '"\\x41"', '{"a":"\u0000"}', '\u0000', '\ufeff{}',
  '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '{"a":1,"a":2}', '{"type":"build","target":{"engine":"sqlite"}', ' ', '\r\n', 'null', '[]',
  '"string"', '42', 'true', '"db": "pg"', '"dict": "connection", "key": "pg_port", "value": "1"', '{"db":["pg"]}', '{"db":{"x":1}}', '-', '1e309', '{"a":NaN}', '{"a":Infinity}',
];
const bodyArb = (path: string): fc.Arbitrary<Body> => {
  const verb = path.slice(1);
  const shaped: fc.Arbitrary<unknown> =
    path === '/api/v1/jobs'
      ? jobBody
      : path === '/api/v1/pools/import'
        ? poolImportBody
        : path.startsWith('/api/v1/pools/hammerdb/')
          ? poolPutBody
      : path.startsWith('/api/v1/configs')
        ? configBody
        : path.startsWith('/api/v1/targets/')
          ? targetBody
          : !path.startsWith('/api/') && path !== '/metrics'
            ? hdbBody(verb)
            : fc.dictionary(fuzzString, fuzzValue, { maxKeys: 4 });
  return fc.oneof(
    { arbitrary: fc.constant<Body>({ kind: 'none' }), weight: 2 },
    { arbitrary: shaped.map((value): Body => ({ kind: 'json', value })), weight: 10 },
    { arbitrary: fuzzValue.map((value): Body => ({ kind: 'json', value })), weight: 2 },
    { arbitrary: fc.oneof(fc.constantFrom(...MALFORMED), fuzzString).map((text): Body => ({ kind: 'raw', text })), weight: 3 },
    { arbitrary: fc.record({ depth: fc.oneof(fc.integer({ min: 60, max: 70 }), fc.integer({ min: 100, max: 30_000 })), open: fc.constantFrom<'{' | '['>('{', '[') }).map((d): Body => ({ kind: 'deep', ...d })), weight: 2 },
    { arbitrary: fc.constantFrom(1024 * 1024 - 64, 1024 * 1024 + 1, 3 * 1024 * 1024).map((bytes): Body => ({ kind: 'huge', bytes })), weight: 1 },
  );
};
const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml',
  'APPLICATION/JSON', 'application/json; charset=latin1', 'application/vnd.api+json', '*/*', '', 'application/json\u0000', 'text/html; charset="utf-8"',
];
const QUERY_KEYS = ['format', 'series', 'vu', 'afterSeq', 'limit', 'offset', 'q', 'from', 'to', 'source', 'engine', 'type', 'status', 'profileId', 'jobid', 'result', 'timing', 'tcount', 'db', 'bm', 'dict', 'delete', 'timestamp', 'since'];
const queryArb = fc.oneof(
  { arbitrary: fc.constant(null), weight: 3 },
  { arbitrary: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), fuzzString), fc.oneof(fuzzString, fc.constantFrom('json', 'csv', 'tcount', 'client', 'timing', 'latency', 'output', 'vus', '1', '0', '-1', '1e3', ''))), { maxLength: 4 }), weight: 4 },
  { arbitrary: fc.constantFrom('%', '%zz', 'a=%00', '&&&=', '=&=', 'format=json&format=csv', 'a[b]=1', 'a[__proto__][x]=1', '__proto__=1', 'jobid', 'dict', 'db&bm', '?', 'token=x'), weight: 2 },
);
const requestArb = (routes: Route[]): fc.Arbitrary<FuzzRequest> =>
  // Routes that take a JSON body (POST/PUT with a requestBody) are drawn 4 times as often: their validation is the deepest.
  fc.constantFrom(...routes.flatMap((r, i) => Array<number>(r.hasBody ? 4 : 1).fill(i))).chain((route) =>
    fc.record({
      route: fc.constant(route),
      method: fc.oneof({ arbitrary: fc.constant(null), weight: 6 }, { arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'), weight: 1 }),
      params: fc.array(
        fc.oneof(
          { arbitrary: fc.nat().map((known): ParamValue => ({ known })), weight: 3 },
          { arbitrary: fc.record({ text: fc.oneof(fuzzString, fc.constantFrom(...PATH_TRICKS)), encode: fc.boolean() }), weight: 3 },
          { arbitrary: fc.constantFrom('%00', 'a%00b', '%0d%0a', 'a%0aSet-Cookie:%20x=1', '%22', '%7f', '%1b%5b31m', '%3b', '%2e', '%2f%2e%2e').map((text): ParamValue => ({ text, encode: false })), weight: 1 },
        ),
        { minLength: 1, maxLength: 1 },
      ),
      pathTrick: rarely(fc.nat(), 6),
      query: queryArb,
      body: bodyArb(routes[route]!.path),
      contentType: rarely(fc.constantFrom(...CONTENT_TYPES), 4),
    }),
  );

/** Percent-encode the UTF-8 bytes of a string (lone surrogates included, as U+FFFD), like encodeURIComponent without its URIError. */
const enc = (text: string): string =>
  [...Buffer.from(text, 'utf8')].map((b) => (/[A-Za-z0-9\-_.!~*'()]/.test(String.fromCharCode(b)) && b < 0x80 ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

/** The same path made strange in one of a few ways a router or an auth check might see differently. */
function trickPath(path: string, n: number): string {
  const i = 1 + (n % Math.max(1, path.length - 1));
  const c = path[i] ?? 'a';
  switch (n % 7) {
    case 0:
      return path.slice(0, i) + '%' + c.charCodeAt(0).toString(16).padStart(2, '0') + path.slice(i + 1);
    case 1:
      return path + '/';
    case 2:
      return '/' + path;
    case 3:
      return path.replace(/\//g, '%2f');
    case 4:
      return '/api/v1/../..' + path;
    case 5:
      return path.toUpperCase();
    default:
      return path + '%00';
  }
}

// ---------------------------------------------------------------- confinement

/** A path value kept under this test's directory (relative paths resolve under dataDir, which is deep inside it). */
function confinePath(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  if (v === '/dev/null/x' || v === '/proc/no-such-dir/x') return v; // cannot be created: the refusal is what is tested
  const abs = resolve(dataDir, v);
  return abs === root || abs.startsWith(root + sep) ? v : v.replace(/[/\\]/g, '_');
}
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
/** Keep a connection on this machine: loopback hosts (or a unix socket directory), and for job routes a closed port. */
function confineTarget(t: Record<string, unknown>, closePorts: boolean): void {
  for (const k of ['host', 'connectString']) {
    const v = t[k];
    if (typeof v === 'string' && !LOOPBACK.has(v) && !v.includes('\u0000') && !v.startsWith('/')) t[k] = '127.0.0.1';
  }
  if (typeof t['connectString'] === 'string' && !t['connectString'].includes('\u0000')) t['connectString'] = `127.0.0.1:${closedPort}/FREEPDB1`;
  if ('authentication' in t) t['authentication'] = 'sql';
  if (typeof t['socket'] === 'string' && t['socket'] !== '' && !t['socket'].includes('\u0000')) t['socket'] = join(root, 'no.sock');
  const port = t['port'];
  // The schema takes integers only: anything else is refused before a connection, so it may stay as generated.
  const usable = port === undefined || (typeof port === 'number' && Number.isInteger(port) && port >= 1 && port <= 65535);
  const realDb = port === undefined || REAL_PORTS.has(port as number);
  // A port the target would really connect to: the closed one, except the real database ports on read-only routes.
  if (t['engine'] !== 'sqlite' && usable && (closePorts || !realDb)) t['port'] = closedPort;
  if ('file' in t) t['file'] = confinePath(t['file']);
}
/** Apply the confinement to a JSON body before it is sent (the fuzzer's own safety, not a property). */
function confine(path: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const b = { ...(value as Record<string, unknown>) };
  if (path.startsWith('/api/')) {
    if (b['target'] !== null && typeof b['target'] === 'object' && !Array.isArray(b['target'])) {
      b['target'] = { ...(b['target'] as Record<string, unknown>) };
      // Read-only target routes may reach the real servers (on loopback); anything that can start a job may not.
      confineTarget(b['target'] as Record<string, unknown>, !path.startsWith('/api/v1/targets/'));
    }
    if (b['datagen'] !== null && typeof b['datagen'] === 'object' && !Array.isArray(b['datagen'])) {
      const d = { ...(b['datagen'] as Record<string, unknown>) };
      d['dir'] = confinePath(d['dir']);
      b['datagen'] = d;
    }
    return b;
  }
  // HammerDB: savescript's file is a bare name it checks itself (it writes only under <data dir>/scripts).
  if (path === '/savescript') return b;
  // customscript: the connection settings a script sets stay on loopback, a closed port, a file under root.
  if (path === '/customscript' && typeof b['script'] === 'string') {
    b['script'] = b['script']
      .replace(/^(\s*set\s+(?:host|server))\s.*$/gim, '$1 127.0.0.1')
      .replace(/^(\s*set\s+port)\s.*$/gim, `$1 ${closedPort}`)
      .replace(/^(\s*set\s+(?:file|socket))\s.*$/gim, `$1 ${join(root, 'fz-script.sqlite')}`)
      .replace(/^(\s*set\s+(?:system)?connect)\s.*$/gim, `$1 tpcc/pw@127.0.0.1:${closedPort}/FREEPDB1`);
  }
  // jobscmd: KNOWN_JOB stands for the fixture run.
  if (Array.isArray(b['args'])) b['args'] = (b['args'] as unknown[]).map((a) => (a === 'KNOWN_JOB' ? knownJob : a));
  // diset {dict,key,value} and dgset {directory}
  const key = typeof b['key'] === 'string' ? b['key'] : '';
  const val = b['value'];
  if (/port$/.test(key)) b['value'] = String(closedPort);
  if (/host$|instance$|server$|dsn$/.test(key) && typeof val === 'string' && !LOOPBACK.has(val)) b['value'] = '127.0.0.1';
  if (/socket$/.test(key)) b['value'] = join(root, 'no.sock');
  if (/file$/.test(key)) b['value'] = confinePath(val);
  if (/authentication$|azure/.test(key)) b['value'] = 'sql';
  // Valid but large sizes come down (as small() does for REST bodies); invalid ones stay to be refused.
  const big = (v: unknown, max: number) => typeof v === 'string' && /^\s*\+?\d+(\.\d+)?\s*$/.test(v) && Number(v) > max;
  if (/count_ware$|num_vu$|async_client$|total_iterations$|duration$|rampup$/.test(key) && big(val, 2)) b['value'] = '1';
  for (const k of ['vu', 'warehouse', 'iterations']) if (big(b[k], 2)) b[k] = '1';
  for (const k of Object.keys(b)) if (k !== 'key' && k !== 'value' && k !== 'dict' && /directory|file/.test(k)) b[k] = typeof b[k] === 'string' ? join(root, String(b[k]).replace(/[/\\]/g, '_')) : b[k];
  return b;
}

// ---------------------------------------------------------------- state

interface Snapshot {
  jobs: string[];
  configs: string;
  shares: number;
  hammerdb: string;
  files: string[];
}
/** Every file and directory under root but the job store's own. */
function files(dir = root, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (dir === dataDir && /^sledge\.db(-wal|-shm|-journal)?$/.test(e.name)) continue;
    out.push(p.slice(root.length) + (e.isDirectory() ? '/' : ''));
    if (e.isDirectory()) files(p, out);
  }
  return out;
}
const PRINT_PAGES = ['db', 'bm', 'dict', 'script', 'vuconf', 'vucreated', 'datagen', 'tcconf'];
async function snapshot(): Promise<Snapshot> {
  // The store's own connection (private in its type): share links have no list route, and reading ids is cheaper than paging the API.
  const db = (s.store as unknown as { db: { prepare(sql: string): { all(): { id: string }[]; get(): { n: number } } } }).db;
  const pages: string[] = [];
  for (const p of PRINT_PAGES) pages.push((await s.app.inject({ method: 'GET', url: `/print?${p}` })).body);
  return {
    jobs: db.prepare('SELECT id FROM job ORDER BY id').all().map((r) => r.id),
    configs: JSON.stringify(s.store.listConfigs()),
    shares: db.prepare('SELECT count(*) AS n FROM share_link').get().n,
    hammerdb: pages.join('\n'),
    files: files(),
  };
}

/** Stop every job that is not over and wait until the engine is idle (nothing runs in the background between requests). */
async function quiesce(): Promise<void> {
  for (const j of s.store.listJobs({ limit: 1000 }).jobs) if (!isTerminal(j.status)) s.engine.stop(j.id);
  await Promise.race([s.engine.idle(), new Promise((r) => setTimeout(r, 30_000))]);
}

async function freePortThatStaysClosed(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise((r) => srv.close(r));
  return port;
}

async function hdb(url: string, body?: unknown): Promise<Record<string, unknown>> {
  const r = await s.app.inject({ method: body === undefined ? 'GET' : 'POST', url, ...(body === undefined ? {} : { payload: JSON.stringify(body) }) });
  return JSON.parse(r.body) as Record<string, unknown>;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'sledge-fuzz-'));
  // Deep, so that "../" tricks in relative paths stay inside root.
  dataDir = join(root, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'data');
  mkdirSync(dataDir, { recursive: true });
  closedPort = await freePortThatStaysClosed();
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) log.push(JSON.parse(line) as (typeof log)[number]);
      done();
    },
  });
  s = await buildApp({ dataDir, uiDir: null, logger: { level: 'warn', stream } as never });

  // Something real to point at: a finished SQLite job (1 warehouse, a short test-driver run), saved configurations, a share link.
  const post = async (url: string, body: unknown) => JSON.parse((await s.app.inject({ method: 'POST', url, payload: body as object })).body) as { id: string };
  const sqlite = { engine: 'sqlite', file: 'fixture.sqlite' };
  await waitJob(s, (await post('/api/v1/jobs', { type: 'build', target: sqlite, tprocc: { warehouses: 1 } })).id);
  await waitJob(s, (await post('/api/v1/jobs', { type: 'run', target: sqlite, tprocc: { driver: 'test', totalIterations: 200, vus: 1 } })).id);
  await post('/api/v1/configs', { name: 'fixture sqlite', target: sqlite });
  await post('/api/v1/configs', { name: 'fixture pg', target: { engine: 'postgresql', host: '127.0.0.1', port: closedPort, password: 'fz-secret' } });
  const job = s.store.listJobs({ limit: 1 }).jobs[0]!;
  knownJob = job.id;
  await post(`/api/v1/jobs/${job.id}/share`, {});

  // The HammerDB session: every database on the closed port, data generation under root, then SQLite current.
  const dg = join(root, 'dg');
  mkdirSync(dg);
  await hdb('/dgset', { directory: dg });
  for (const db of ['ora', 'mssqls', 'db2', 'mysql', 'pg', 'maria', 'sqlite']) {
    await hdb('/dbset', { db });
    const dict = (await hdb('/print?dict')) as Record<string, Record<string, string>>;
    for (const [section, keys] of Object.entries(dict)) {
      for (const key of Object.keys(keys)) {
        hdbKeys.push({ dict: section, key });
        if (/port$/.test(key)) await hdb('/diset', { dict: section, key, value: String(closedPort) });
        if (/host$/.test(key)) await hdb('/diset', { dict: section, key, value: '127.0.0.1' });
        if (/file$/.test(key)) await hdb('/diset', { dict: section, key, value: 'hammerdb.sqlite' });
      }
    }
  }
  await hdb('/dbset', { db: 'sqlite' });
  await hdb('/diset', { dict: 'tpcc', key: 'sqlite_rampup', value: '0' });
});

afterAll(async () => {
  await s?.app.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

// ---------------------------------------------------------------- the property

/** Every route of the OpenAPI document. */
async function openApiRoutes(): Promise<Route[]> {
  const doc = JSON.parse((await s.app.inject({ method: 'GET', url: '/docs/json' })).body) as { paths: Record<string, Record<string, { requestBody?: unknown }>> };
  return Object.entries(doc.paths).map(([path, ops]) => ({
    path,
    methods: Object.keys(ops).map((m) => m.toUpperCase()),
    hasBody: Object.values(ops).some((op) => op.requestBody !== undefined),
  }));
}

/** Send `runs` requests drawn from `arb` over `routes` and check the properties (see the file comment) on each; returns how many were sent and which routes were hit. */
async function runFuzz(label: string, routes: Route[], arb: fc.Arbitrary<FuzzRequest>, runs: number): Promise<{ sent: number; hit: Set<string> }> {
  const statuses: Record<string, number> = {};
  const hit = new Set<string>();
  /** Violations grouped by kind (what broke, on which route), each with a count and its first request. */
  const violations = new Map<string, { count: number; example: string }>();
  const violation = (kind: string, example: string) => {
    const v = violations.get(kind);
    if (v) v.count++;
    else violations.set(kind, { count: 1, example: example.slice(0, 700) });
  };
  let sent = 0;
  let jobsCreated = 0;
  let before = await snapshot();
  const started = Date.now();

  /** An id that exists now: a job's, a saved configuration's, a profile's or the share link's, by route. */
  const knownParam = (path: string, i: number): string => {
    const pool = path.startsWith('/api/v1/configs/')
      ? (JSON.parse(before.configs) as { id: number }[]).map((c) => String(c.id))
      : path.startsWith('/api/v1/profiles/')
        ? ['0', '1', '2']
        : path.startsWith('/api/v1/shared/')
          ? [shareToken()]
          : before.jobs;
    return pool.length ? pool[i % pool.length]! : String(i);
  };

  await fc.assert(
    fc.asyncProperty(arb, async (r) => {
      const route = routes[r.route]!;
      const method = r.method ?? route.methods[sent % route.methods.length]!;
      let p = 0;
      let path = route.path.replace(/\{(\w+)\}/g, () => {
        const v = r.params[p++ % r.params.length]!;
        return 'known' in v ? knownParam(route.path, v.known) : v.encode ? enc(v.text) : v.text;
      });
      if (r.pathTrick !== null) path = trickPath(path, r.pathTrick);
      const query = r.query === null ? '' : typeof r.query === 'string' ? `?${r.query}` : `?${r.query.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')}`;
      const url = path + query;
      let payload: string | undefined;
      switch (r.body.kind) {
        case 'json':
          payload = JSON.stringify(confine(route.path, r.body.value)) ?? 'null';
          break;
        case 'raw':
          payload = r.body.text;
          break;
        case 'deep': {
          const deep = r.body.open === '{' ? '{"a":'.repeat(r.body.depth) + '1' + '}'.repeat(r.body.depth) : '['.repeat(r.body.depth) + '1' + ']'.repeat(r.body.depth);
          payload = [deep, `{"name":"deep","target":${deep}}`, `{"type":"build","target":{"engine":"sqlite"},"tprocc":${deep}}`, `{"dict":${deep}}`][r.body.depth % 4];
          break;
        }
        case 'huge':
          payload = JSON.stringify({ name: 'x'.repeat(r.body.bytes), target: { engine: 'sqlite' } });
          break;
      }
      const headers: Record<string, string> = {};
      if (payload !== undefined) headers['content-type'] = r.contentType ?? 'application/json';
      const logBefore = log.length;
      const what = `${method} ${url.length > 200 ? url.slice(0, 200) + '…' : url} body=${payload === undefined ? '-' : payload.length > 200 ? payload.slice(0, 200) + `… (${payload.length} chars)` : payload}`;

      let res;
      try {
        res = await s.app.inject({ method: method as 'GET', url, headers, ...(payload !== undefined ? { payload } : {}) });
      } catch (e) {
        // light-my-request refuses some URLs or headers itself (no request reached the server).
        statuses['client-refused'] = (statuses['client-refused'] ?? 0) + 1;
        if (!/Invalid|invalid|URL|header/i.test(String(e))) violation(`inject threw ${String(e).slice(0, 60)}`, what);
        return true;
      }
      sent++;
      hit.add(`${route.path}`);
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      const body = res.body;
      let hdbRefused = false;
      if (res.statusCode === 200 && !route.path.startsWith('/api/') && body.startsWith('{"error":')) {
        hdbRefused = true;
        statuses['200 HammerDB error envelope (within 200)'] = (statuses['200 HammerDB error envelope (within 200)'] ?? 0) + 1;
      }

      if (res.statusCode >= 500) violation(`${res.statusCode} on ${route.path}: ${body.slice(0, 80)}`, what);
      if (STACK_FRAME.test(body)) violation(`stack frame in a body on ${route.path}`, `${what} -> ${body.slice(0, 300)}`);
      const leaked = ENGINE_ERROR.exec(body);
      // (error bodies only: a job's stored output and error may quote its database, e.g. "SQLITE_BUSY")
      if (leaked && res.statusCode >= 400 && !ENGINE_ERROR.test(payload ?? '') && !ENGINE_ERROR.test(url)) violation(`internal error text "${leaked[0]}" in a ${res.statusCode} body`, `${what} -> ${body.slice(0, 300)}`);
      if (body.includes(REPO)) violation(`a repository path in a body on ${route.path}`, `${what} -> ${body.slice(0, 300)}`);
      for (const l of log.slice(logBefore)) {
        if (l.level >= 40 && l.err?.type !== 'SledgeError') violation(`logged at level ${l.level}: ${l.err?.type ?? ''} ${(l.err?.message ?? l.msg ?? '').slice(0, 60)}`, what);
      }

      const after = await snapshot();
      const refused = (res.statusCode >= 400 && res.statusCode < 500) || hdbRefused;
      if (refused) {
        for (const k of ['jobs', 'configs', 'shares', 'hammerdb', 'files'] as const) {
          if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) violation(`${route.path} refused (${res.statusCode}) but changed ${k}`, `${what} -> ${body.slice(0, 200)}`);
        }
      }
      if (after.jobs.length > before.jobs.length) {
        jobsCreated += after.jobs.length - before.jobs.length;
        await quiesce();
        before = await snapshot();
      } else before = after;
      return true;
    }),
    { seed: SEED, numRuns: runs, endOnFailure: true },
  );
  await quiesce();

  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const histogram = Object.entries(statuses).sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k}: ${n}`).join(', ');
  console.log(`fuzz (${label}): seed ${SEED} (0x${SEED.toString(16)}), ${sent} requests over ${hit.size}/${routes.length} routes in ${seconds} s, ${jobsCreated} SQLite job(s) created and stopped; statuses ${histogram}`);
  expect([...violations].map(([kind, v]) => `${kind} (${v.count}x), e.g. ${v.example}`)).toEqual([]);
  return { sent, hit };
}

/** Routes whose bodies the second pass aims at: connect pool XML and the HammerDB verbs' bodies. */
const BODY_ROUTES = [
  '/api/v1/pools/import', '/api/v1/pools/hammerdb/{prefix}',
  '/dbset', '/diset', '/vuset', '/tcset', '/dgset', '/giset', '/loadscript', '/clearscript', '/customscript', '/custommonitor', '/savescript', '/echo', '/jobscmd', '/print',
];

describe('API fuzzing', () => {
  it(`${RUNS} generated requests over every OpenAPI route: no 5xx, no stack trace, no state change on a refusal`, async () => {
    const routes = await openApiRoutes();
    expect(routes.length).toBeGreaterThan(50);
    expect(routes.map((r) => r.path)).toEqual(expect.arrayContaining(['/api/v1/jobs', '/api/v1/configs/{id}', '/metrics', '/dbset', '/diset', '/buildschema', '/jobs']));
    const { sent, hit } = await runFuzz('every route', routes, requestArb(routes), RUNS);
    expect(sent).toBeGreaterThanOrEqual(RUNS * 0.95);
    expect(hit.size).toBe(routes.length);
    // 85 s on a quiet machine; the slow stage runs it beside other suites.
  }, 900_000);

  it(`${BODY_RUNS} generated bodies for the pool XML import and the HammerDB verbs: the same properties`, async () => {
    const routes = (await openApiRoutes()).filter((r) => BODY_ROUTES.includes(r.path));
    expect(routes.map((r) => r.path).sort()).toEqual([...BODY_ROUTES].sort());
    const { sent, hit } = await runFuzz('bodies', routes, requestArb(routes), BODY_RUNS);
    expect(sent).toBeGreaterThanOrEqual(BODY_RUNS * 0.95);
    expect(hit.size).toBe(routes.length);
  }, 900_000);
});

function shareToken(): string {
  const db = (s.store as unknown as { db: { prepare(sql: string): { get(): { token: string } | undefined } } }).db;
  return db.prepare('SELECT token FROM share_link LIMIT 1').get()?.token ?? 'no-share-token';
}
