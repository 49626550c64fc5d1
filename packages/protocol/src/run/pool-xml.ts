import { SledgeError } from '../errors.js';
import type { EngineId } from '../engines.js';
import { POOL_POLICIES, type ConnectPool, type PoolConnection, type PoolPolicy } from './pool.js';

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
};

/** HammerDB's key prefix per engine (config/database.xml); Oracle's keys carry none. */
const PREFIX: Record<EngineId, string> = { postgresql: 'pg', mysql: 'mysql', mariadb: 'maria', mssql: 'mssqls', oracle: '', db2: 'db2', sqlite: 'sqlite' };

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

interface Node {
  tag: string;
  children: Node[];
  text: string;
  line: number;
}

const bad = (message: string, line?: number) =>
  new SledgeError('SLEDGE_E_VALIDATION', `connect pool XML: ${message}${line ? ` (line ${line})` : ''}`, { field: 'xml' });

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) =>
    e[0] === '#' ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)) : (ENTITIES[e] ?? m),
  );

/** A small XML reader for element-only documents (no attributes used): declarations, comments and CDATA are handled. */
function parseXml(xml: string): Node {
  let i = 0;
  const lineAt = (k: number) => xml.slice(0, k).split('\n').length;
  const root: Node = { tag: '#root', children: [], text: '', line: 1 };
  const stack: Node[] = [root];
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const top = stack[stack.length - 1]!;
    if (lt < 0) {
      top.text += decode(xml.slice(i));
      break;
    }
    top.text += decode(xml.slice(i, lt));
    if (xml.startsWith('<!--', lt)) {
      const e = xml.indexOf('-->', lt + 4);
      if (e < 0) throw bad('a comment is not closed', lineAt(lt));
      i = e + 3;
    } else if (xml.startsWith('<![CDATA[', lt)) {
      const e = xml.indexOf(']]>', lt + 9);
      if (e < 0) throw bad('a CDATA section is not closed', lineAt(lt));
      top.text += xml.slice(lt + 9, e);
      i = e + 3;
    } else if (xml.startsWith('<?', lt) || xml.startsWith('<!', lt)) {
      const e = xml.indexOf('>', lt);
      if (e < 0) throw bad('a declaration is not closed', lineAt(lt));
      i = e + 1;
    } else {
      const gt = xml.indexOf('>', lt);
      if (gt < 0) throw bad('a tag is not closed', lineAt(lt));
      const body = xml.slice(lt + 1, gt).trim();
      i = gt + 1;
      if (body.startsWith('/')) {
        const name = body.slice(1).trim();
        if (top.tag !== name) throw bad(`</${name}> closes <${top.tag}>`, lineAt(lt));
        stack.pop();
        continue;
      }
      const selfClosing = body.endsWith('/');
      const name = (selfClosing ? body.slice(0, -1) : body).trim().split(/\s+/)[0] ?? '';
      if (!/^[A-Za-z_][\w.-]*$/.test(name)) throw bad(`<${body}> is not an element name`, lineAt(lt));
      const node: Node = { tag: name, children: [], text: '', line: lineAt(lt) };
      top.children.push(node);
      if (!selfClosing) stack.push(node);
    }
  }
  if (stack.length > 1) throw bad(`<${stack[stack.length - 1]!.tag}> is not closed`, stack[stack.length - 1]!.line);
  return root;
}

const child = (n: Node, tag: string) => n.children.find((c) => c.tag === tag);

/** The engine the file's connection keys are for (pg_host -> postgresql), when not given. */
function guessEngine(conns: Node[]): EngineId | undefined {
  for (const c of conns) {
    for (const k of c.children) {
      const e = (Object.keys(PREFIX) as EngineId[]).find((en) => PREFIX[en] && k.tag.startsWith(`${PREFIX[en]}_`) && KEYS[en][k.tag.slice(PREFIX[en].length + 1)]);
      if (e) return e;
      if (KEYS.oracle[k.tag]) return 'oracle';
    }
  }
  return undefined;
}

function convert(v: string, conv: Conv, where: string, line: number): string | number | boolean {
  if (conv === 'int') {
    if (!/^\d+$/.test(v)) throw bad(`${where} must be a whole number (got "${v}")`, line);
    return Number(v);
  }
  if (conv === 'bool') {
    if (/^(true|1|yes|on)$/i.test(v)) return true;
    if (/^(false|0|no|off)$/i.test(v)) return false;
    throw bad(`${where} must be true or false (got "${v}")`, line);
  }
  return v;
}

/**
 * Parse a HammerDB connect pool file. `engine`: the target's engine (else
 * read from the keys' prefix). Throws SLEDGE_E_VALIDATION (field "xml") on a
 * malformed file or one without connections; the result's `pool` is then
 * checked against the target like any pool (checkPool).
 */
export function parseConnectPoolXml(xml: string, engine?: EngineId): PoolImport {
  if (typeof xml !== 'string' || !xml.trim()) throw bad('the file is empty');
  const doc = parseXml(xml);
  const top = doc.children[0];
  if (!top || top.tag !== 'connpool') throw bad(`the root element must be <connpool>${top ? ` (got <${top.tag}>)` : ''}`);
  const connsNode = child(top, 'connections');
  if (!connsNode || !connsNode.children.length) throw bad('<connpool> has no <connections> entries (<c1>..</c1>)', top.line);
  const en = engine ?? guessEngine(connsNode.children);
  if (!en) throw bad('cannot tell the database from the connection keys (pg_host, maria_host, mysql_host ...): give the engine');
  const prefix = PREFIX[en];
  const keys = KEYS[en];
  const ignored: string[] = [];
  const connections: PoolConnection[] = connsNode.children.map((c) => {
    const conn: PoolConnection = { name: c.tag };
    for (const k of c.children) {
      const suffix = prefix && k.tag.startsWith(`${prefix}_`) ? k.tag.slice(prefix.length + 1) : k.tag;
      const m = keys[suffix];
      if (!m) {
        ignored.push(`${c.tag}.${k.tag}`);
        continue;
      }
      conn[m[0]] = convert(k.text.trim(), m[1], `${c.tag}.${k.tag}`, k.line);
    }
    return conn;
  });
  const ops: Record<string, { connections: string[]; policy: PoolPolicy }> = {};
  for (const s of child(top, 'sprocs')?.children ?? []) {
    const names = (child(s, 'connections')?.text ?? '').trim().split(/\s+/).filter(Boolean);
    if (!names.length) throw bad(`<${s.tag}> has no <connections> list`, s.line);
    const policy = (child(s, 'policy')?.text ?? '').trim();
    // HammerDB falls back to the first named connection for a policy it does not know.
    if (!(POOL_POLICIES as readonly string[]).includes(policy)) ignored.push(`${s.tag}.policy "${policy}" (first_named used, as HammerDB does)`);
    ops[s.tag] = { connections: names, policy: (POOL_POLICIES as readonly string[]).includes(policy) ? (policy as PoolPolicy) : 'first_named' };
  }
  const pool: ConnectPool = { connections, ...(Object.keys(ops).length ? { ops } : {}) };
  return { engine: en, pool, ignored };
}
