import { SledgeError } from '../errors.js';
import type { EngineId } from '../engines.js';
import { POOL_POLICIES, type ConnectPool, type PoolConnection, type PoolPolicy } from './pool.js';
import { secretFields } from '../targets.js';
import { readXml, readXmlAsync, type XmlElement } from './xml-reader.js';

/**
 * HammerDB's connect pool file (config/connectpool/<prefix>cpool.xml,
 * hammerdb.md §6.8) -> a target's `pool`:
 *
 *   <connpool>
 *     <connections><c1><pg_host>..</pg_host><pg_port>..</pg_port>..</c1> ..</connections>
 *     <sprocs><neworder><connections>c1 c2 c3</connections><policy>round_robin</policy></neworder> ..</sprocs>
 *   </connpool>
 *
 * Connection keys are HammerDB's dict keys of the engine (pg_host, maria_user,
 * mysql_dbase, mssqls_uid, tpcc_user ...) and map to the target's fields as
 * the command API's diset does. Keys Sledge has no field for are listed in
 * `ignored`, not refused: a HammerDB file imports as is. The <sprocs> entries
 * name the operations (neworder, payment, delivery, stocklevel, orderstatus).
 */

type Conv = 'string' | 'int' | 'bool';
/** HammerDB connection key suffix -> target field, per engine. */
const KEYS: Record<EngineId, Record<string, [string, Conv]>> = {
  postgresql: {
    host: ['host', 'string'],
    port: ['port', 'int'],
    sslmode: ['sslmode', 'string'],
    user: ['user', 'string'],
    pass: ['password', 'string'],
    dbase: ['database', 'string'],
    superuser: ['superuser', 'string'],
    superuserpass: ['superuserPassword', 'string'],
    defaultdbase: ['defaultDatabase', 'string'],
  },
  mysql: { host: ['host', 'string'], port: ['port', 'int'], socket: ['socket', 'string'], ssl: ['ssl', 'bool'], user: ['user', 'string'], pass: ['password', 'string'], dbase: ['database', 'string'] },
  mariadb: { host: ['host', 'string'], port: ['port', 'int'], socket: ['socket', 'string'], ssl: ['ssl', 'bool'], user: ['user', 'string'], pass: ['password', 'string'], dbase: ['database', 'string'] },
  mssql: { server: ['host', 'string'], linux_server: ['host', 'string'], port: ['port', 'int'], uid: ['user', 'string'], pass: ['password', 'string'], dbase: ['database', 'string'] },
  oracle: { instance: ['connectString', 'string'], system_user: ['systemUser', 'string'], system_password: ['systemPassword', 'string'], tpcc_user: ['user', 'string'], tpcc_pass: ['password', 'string'] },
  db2: { host: ['host', 'string'], port: ['port', 'int'], user: ['user', 'string'], pass: ['password', 'string'], dbase: ['database', 'string'] },
  sqlite: { file: ['file', 'string'] },
  duckdb: { file: ['file', 'string'] },
};

/** HammerDB's key prefix per engine (config/database.xml); Oracle's keys carry none. */
const PREFIX: Record<EngineId, string> = { postgresql: 'pg', mysql: 'mysql', mariadb: 'maria', mssql: 'mssqls', oracle: '', db2: 'db2', sqlite: 'sqlite', duckdb: 'duckdb' };

/** The engine a pool file is for, from its file name prefix (pgcpool.xml) or HammerDB prefix (pg, maria ...). */
export function engineOfPoolPrefix(prefix: string): EngineId | undefined {
  const p = prefix.replace(/cpool(\.xml)?$/i, '').toLowerCase();
  if (p === 'ora') return 'oracle';
  return (Object.keys(PREFIX) as EngineId[]).find((e) => PREFIX[e] === p && p !== '');
}

export interface PoolImport {
  engine: EngineId;
  pool: ConnectPool;
  /** Keys of the file Sledge has no setting for (e.g. "c1.pg_ssl_cert"). */
  ignored: string[];
}

type Node = XmlElement;

/** A pool file has 4 levels (connpool / connections / c1 / pg_host); a few more are allowed for HammerDB files with extra sections. */
const MAX_DEPTH = 16;
/** Far above a real file (256 connections x their keys + the sprocs): bounds what a hostile file can make the reader hold. */
const MAX_ELEMENTS = 50_000;
/** As many connections as a pool may hold (ConnectPool's maxItems). */
const MAX_CONNECTIONS = 256;

const bad = (message: string, at?: Node) =>
  new SledgeError('SLEDGE_E_VALIDATION', `connect pool XML: ${message}${at ? ` (line ${at.line}, column ${at.column})` : ''}`, { field: 'xml' });

const XML_OPTIONS = { what: 'connect pool XML', field: 'xml', maxDepth: MAX_DEPTH, maxElements: MAX_ELEMENTS };

/** A connect pool file as read: its text and element tree (what poolOfXml and mapPoolXmlSecrets take). */
export interface PoolXml {
  xml: string;
  root: XmlElement;
}

const empty = (xml: string) => {
  if (typeof xml !== 'string' || !xml.trim()) throw bad('the file is empty');
};

/** Read a connect pool file (linear in its length; SLEDGE_E_VALIDATION on field "xml" with line and column). */
export function readPoolXml(xml: string): PoolXml {
  empty(xml);
  return { xml, root: readXml(xml, XML_OPTIONS) };
}

/** readPoolXml for a server: gives the event loop back between slices of a large file. */
export async function readPoolXmlAsync(xml: string): Promise<PoolXml> {
  empty(xml);
  return { xml, root: await readXmlAsync(xml, XML_OPTIONS) };
}

const child = (n: Node, tag: string) => n.children.find((c) => c.tag === tag);
const own = <T>(o: Record<string, T>, k: string): T | undefined => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);

/** The Sledge field (and conversion) of a connection key of `engine`'s file (pg_host -> host), if it has one. */
function fieldOf(en: EngineId, tag: string): [string, Conv] | undefined {
  const prefix = PREFIX[en];
  return own(KEYS[en], prefix && tag.startsWith(`${prefix}_`) ? tag.slice(prefix.length + 1) : tag);
}

/** The engine the file's connection keys are for (pg_host -> postgresql), when not given. */
function guessEngine(conns: Node[]): EngineId | undefined {
  for (const c of conns) {
    for (const k of c.children) {
      const e = (Object.keys(PREFIX) as EngineId[]).find((en) => PREFIX[en] && k.tag.startsWith(`${PREFIX[en]}_`) && fieldOf(en, k.tag));
      if (e) return e;
      if (own(KEYS.oracle, k.tag)) return 'oracle';
    }
  }
  return undefined;
}

function convert(v: string, conv: Conv, where: string, at: Node): string | number | boolean {
  const shown = v.length > 40 ? `${v.slice(0, 40)}...` : v;
  if (conv === 'int') {
    if (!/^\d{1,15}$/.test(v)) throw bad(`${where} must be a whole number (got "${shown}")`, at);
    return Number(v);
  }
  if (conv === 'bool') {
    if (/^(true|1|yes|on)$/i.test(v)) return true;
    if (/^(false|0|no|off)$/i.test(v)) return false;
    throw bad(`${where} must be true or false (got "${shown}")`, at);
  }
  return v;
}

/** The root <connpool>, its <connections> and the engine they are for. */
function poolParts(top: Node, engine: EngineId | undefined): { top: Node; conns: Node[]; en: EngineId } {
  if (top.tag !== 'connpool') throw bad(`the root element must be <connpool> (got <${top.tag}>)`, top);
  const connsNode = child(top, 'connections');
  if (!connsNode || !connsNode.children.length) throw bad('<connpool> has no <connections> entries (<c1>..</c1>)', top);
  if (connsNode.children.length > MAX_CONNECTIONS) throw bad(`<connections> has ${connsNode.children.length} entries: a pool holds at most ${MAX_CONNECTIONS}`, connsNode);
  const en = engine ?? guessEngine(connsNode.children);
  if (!en) throw bad('cannot tell the database from the connection keys (pg_host, maria_host, mysql_host ...): give the engine');
  return { top, conns: connsNode.children, en };
}

/**
 * Parse a HammerDB connect pool file. `engine`: the target's engine (else
 * read from the keys' prefix). Throws SLEDGE_E_VALIDATION (field "xml",
 * with line and column) on a malformed file or one without connections; the
 * result's `pool` is then checked against the target like any pool
 * (checkPool). Linear in the file's length.
 */
export const parseConnectPoolXml = (xml: string, engine?: EngineId): PoolImport => poolOfXml(readPoolXml(xml), engine);

/** The pool of a read file (parseConnectPoolXml's second half). */
export function poolOfXml(doc: PoolXml, engine?: EngineId): PoolImport {
  const { top, conns, en } = poolParts(doc.root, engine);
  const ignored: string[] = [];
  const connections: PoolConnection[] = conns.map((c) => {
    const conn: PoolConnection = { name: c.tag };
    for (const k of c.children) {
      const m = fieldOf(en, k.tag);
      if (!m) {
        ignored.push(`${c.tag}.${k.tag}`);
        continue;
      }
      conn[m[0]] = convert(k.text.trim(), m[1], `${c.tag}.${k.tag}`, k);
    }
    return conn;
  });
  const ops = new Map<string, { connections: string[]; policy: PoolPolicy }>();
  for (const s of child(top, 'sprocs')?.children ?? []) {
    const names = (child(s, 'connections')?.text ?? '').trim().split(/\s+/).filter(Boolean);
    if (!names.length) throw bad(`<${s.tag}> has no <connections> list`, s);
    const policy = (child(s, 'policy')?.text ?? '').trim();
    // HammerDB falls back to the first named connection for a policy it does not know.
    if (!(POOL_POLICIES as readonly string[]).includes(policy)) ignored.push(`${s.tag}.policy "${policy}" (first_named used, as HammerDB does)`);
    ops.set(s.tag, { connections: names, policy: (POOL_POLICIES as readonly string[]).includes(policy) ? (policy as PoolPolicy) : 'first_named' });
  }
  const pool: ConnectPool = { connections, ...(ops.size ? { ops: Object.fromEntries(ops) } : {}) };
  return { engine: en, pool, ignored };
}

/**
 * The file with each secret value (pg_pass, mssqls_pass, tpcc_pass ...)
 * replaced by `map(value, connection name, field)`, the rest of the text as
 * it was: how a stored pool file keeps its passwords encrypted at rest.
 * `changed` says whether any value differs.
 */
export function mapPoolXmlSecrets(doc: PoolXml, engine: EngineId, map: (value: string, connection: string, field: string) => string): { xml: string; changed: boolean } {
  const { xml } = doc;
  const { conns, en } = poolParts(doc.root, engine);
  const secret = new Set(secretFields(en));
  const edits: { at: [number, number]; text: string }[] = [];
  for (const c of conns) {
    for (const k of c.children) {
      const field = fieldOf(en, k.tag)?.[0];
      if (!field || !secret.has(field) || k.children.length) continue;
      const value = k.text.trim();
      const next = map(value, c.tag, field);
      if (next !== value) edits.push({ at: k.content, text: escapeXmlText(next) });
    }
  }
  let out = '';
  let from = 0;
  for (const e of edits) {
    out += xml.slice(from, e.at[0]) + e.text;
    from = e.at[1];
  }
  return { xml: out + xml.slice(from), changed: edits.length > 0 };
}

/** Text as XML character data. */
export const escapeXmlText = (s: string): string => s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
