import { describe, expect, it } from 'vitest';
import { parseConnectPoolXml, mapPoolXmlSecrets, readPoolXml, engineOfPoolPrefix, parseJobCreate, parseTarget, poolRoutes, redact, scrub, secretValues, SledgeError, REDACTED } from '../index.js';
import { err } from '../test/err.js';

/** HammerDB 4.11's config/connectpool/pgcpool.xml, as printed in seed 003 (HammerDB's connect pool article). */
const PGCPOOL = `<connpool>
<connections>
<c1>
<pg_host>localhost</pg_host>
<pg_port>5432</pg_port>
<pg_sslmode>prefer</pg_sslmode>
<pg_user>tpcc1</pg_user>
<pg_pass>tpcc1</pg_pass>
<pg_dbase>tpcc1</pg_dbase>
</c1>
<c2>
<pg_host>localhost</pg_host>
<pg_port>5432</pg_port>
<pg_sslmode>prefer</pg_sslmode>
<pg_user>tpcc2</pg_user>
<pg_pass>tpcc2</pg_pass>
<pg_dbase>tpcc2</pg_dbase>
</c2>
<c3>
<pg_host>localhost</pg_host>
<pg_port>5432</pg_port>
<pg_sslmode>prefer</pg_sslmode>
<pg_user>tpcc3</pg_user>
<pg_pass>tpcc3</pg_pass>
<pg_dbase>tpcc3</pg_dbase>
</c3>
</connections>
<sprocs>
<neworder>
<connections>c1 c2 c3</connections>
<policy>round_robin</policy>
</neworder>
<payment>
<connections>c1 c2 c3</connections>
<policy>round_robin</policy>
</payment>
<delivery>
<connections>c1 c2 c3</connections>
<policy>round_robin</policy>
</delivery>
<stocklevel>
<connections>c1 c2 c3</connections>
<policy>round_robin</policy>
</stocklevel>
<orderstatus>
<connections>c1 c2 c3</connections>
<policy>round_robin</policy>
</orderstatus>
</sprocs>
</connpool>
`;

const fields = (e: SledgeError) => (e.errors ?? [{ field: e.field, message: e.message }]).map((x) => x.field);

describe('HammerDB connect pool XML', () => {
  it('imports the pgcpool.xml of seed 003 as is', () => {
    const r = parseConnectPoolXml(PGCPOOL);
    expect(r.engine).toBe('postgresql');
    expect(r.ignored).toEqual([]);
    expect(r.pool.connections).toEqual([1, 2, 3].map((n) => ({ name: `c${n}`, host: 'localhost', port: 5432, sslmode: 'prefer', user: `tpcc${n}`, password: `tpcc${n}`, database: `tpcc${n}` })));
    expect(Object.keys(r.pool.ops!)).toEqual(['neworder', 'payment', 'delivery', 'stocklevel', 'orderstatus']);
    for (const op of Object.values(r.pool.ops!)) expect(op).toEqual({ connections: ['c1', 'c2', 'c3'], policy: 'round_robin' });
    // ... and is a valid pool of a PostgreSQL job
    const cfg = parseJobCreate({ type: 'run', target: { engine: 'postgresql', pool: r.pool }, tprocc: {} }, 1);
    expect(cfg.target.pool?.connections.length).toBe(3);
  });

  it('reads the MariaDB and MySQL flavours, notes keys Sledge has no field for, and falls back to first_named', () => {
    const xml = `<?xml version="1.0"?><connpool><connections>
      <a><maria_host>db1</maria_host><maria_port>3307</maria_port><maria_user>root</maria_user><maria_pass>s&amp;cret</maria_pass><maria_dbase>tpcc</maria_dbase><maria_ssl_cipher>server</maria_ssl_cipher></a>
      <b><maria_host>db2</maria_host></b></connections>
      <sprocs><payment><connections>a b</connections><policy>bogus</policy></payment></sprocs></connpool>`;
    const r = parseConnectPoolXml(xml);
    expect(r.engine).toBe('mariadb');
    expect(r.pool.connections[0]).toEqual({ name: 'a', host: 'db1', port: 3307, user: 'root', password: 's&cret', database: 'tpcc' });
    expect(r.ignored).toEqual(['a.maria_ssl_cipher', 'payment.policy "bogus" (first_named used, as HammerDB does)']);
    expect(r.pool.ops!['payment']!.policy).toBe('first_named');
    const my = parseConnectPoolXml('<connpool><connections><c1><mysql_host>h</mysql_host><mysql_socket>/s</mysql_socket></c1></connections></connpool>');
    expect(my.engine).toBe('mysql');
    expect(my.pool.connections[0]).toEqual({ name: 'c1', host: 'h', socket: '/s' });
    expect(engineOfPoolPrefix('pgcpool.xml')).toBe('postgresql');
    expect(engineOfPoolPrefix('maria')).toBe('mariadb');
  });

  it('refuses a malformed file with a typed error on field xml', () => {
    for (const x of ['', '<connpool><connections><c1><pg_host>h</c1></connections></connpool>', '<pool/>', '<connpool></connpool>']) {
      const e = err(() => parseConnectPoolXml(x));
      expect(e.code).toBe('SLEDGE_E_VALIDATION');
      expect(e.field).toBe('xml');
    }
    expect(err(() => parseConnectPoolXml('<connpool><connections><c1><pg_port>x</pg_port></c1></connections></connpool>')).message).toMatch(/c1.pg_port must be a whole number \(got "x"\) \(line 1, column 28\)$/);
    // What once answered 500 (RangeError) or was read past: typed, with where.
    const at = (x: string) => err(() => parseConnectPoolXml(x, 'postgresql'));
    expect(at('<connpool><connections><c1><pg_host>&#99999999;</pg_host></c1></connections></connpool>')).toMatchObject({ code: 'SLEDGE_E_VALIDATION', field: 'xml' });
    expect(at('<connpool><connections><c1><pg_host>&#99999999;</pg_host></c1></connections></connpool>').message).toMatch(/^connect pool XML: &#99999999; .*\(line 1, column 37\)$/);
    expect(at('<connpool>\n<connections><c1><pg_host>h</pg_host></c1></connections>').message).toMatch(/<connpool> is not closed.*\(line 1, column 1\)/);
    expect(at(`<connpool><connections>${'<c><pg_host>h</pg_host></c>'.repeat(257)}</connections></connpool>`).message).toMatch(/<connections> has 257 entries: a pool holds at most 256/);
    // Keys are looked up as the file's own names only (no inherited property such as "constructor").
    expect(parseConnectPoolXml('<connpool><connections><c1><constructor>x</constructor><pg___proto__>y</pg___proto__></c1></connections></connpool>', 'postgresql')).toMatchObject({
      pool: { connections: [{ name: 'c1' }] },
      ignored: ['c1.constructor', 'c1.pg___proto__'],
    });
  });

  it('mapPoolXmlSecrets rewrites only the password values, the rest of the file as it was', () => {
    const seen: string[] = [];
    const out = mapPoolXmlSecrets(readPoolXml(PGCPOOL.replace('<pg_pass>tpcc2</pg_pass>', '<pg_pass>a&amp;b</pg_pass>')), 'postgresql', (v, c, f) => {
      seen.push(`${c}.${f}=${v}`);
      return `<${v.toUpperCase()}>`;
    });
    expect(seen).toEqual(['c1.password=tpcc1', 'c2.password=a&b', 'c3.password=tpcc3']);
    expect(out.changed).toBe(true);
    expect(out.xml).toBe(PGCPOOL.replace('<pg_pass>tpcc1</pg_pass>', '<pg_pass>&lt;TPCC1&gt;</pg_pass>').replace('<pg_pass>tpcc2</pg_pass>', '<pg_pass>&lt;A&amp;B&gt;</pg_pass>').replace('<pg_pass>tpcc3</pg_pass>', '<pg_pass>&lt;TPCC3&gt;</pg_pass>'));
    expect(parseConnectPoolXml(out.xml).pool.connections.map((c) => c.password)).toEqual(['<TPCC1>', '<A&B>', '<TPCC3>']);
    expect(mapPoolXmlSecrets(readPoolXml(PGCPOOL), 'postgresql', (v) => v)).toEqual({ xml: PGCPOOL, changed: false });
  });
});

describe('target.pool validation', () => {
  const base = { engine: 'postgresql', password: 'base-secret' };
  it('names every field at fault', () => {
    const e = err(() =>
      parseTarget({
        ...base,
        pool: {
          connections: [{ name: 'a', database: 'x' }, { name: 'a', port: 99999 }, { name: 'c', vacuum: true }],
          ops: { neworder: { connections: ['a', 'zz'], policy: 'round_robin' } },
        },
      }),
    );
    expect(fields(e).sort()).toEqual(['target.pool.connections.1.name', 'target.pool.connections.1.port', 'target.pool.connections.2.vacuum', 'target.pool.ops.neworder.connections.1'].sort());
    expect(err(() => parseTarget({ ...base, pool: { connections: [{ name: 'a' }], ops: { neworder: { connections: ['a'], policy: 'sometimes' } } } })).field).toBe('target.pool.ops.neworder.policy');
  });
  it('refuses operations the workload does not have', () => {
    const e = err(() => parseJobCreate({ type: 'run', tprocc: {}, target: { ...base, pool: { connections: [{ name: 'a' }], ops: { neword: { connections: ['a'], policy: 'random' } } } } }, 1));
    expect(e.field).toBe('target.pool.ops.neword');
    expect(e.message).toMatch(/not an operation of TPROC-C; one of neworder, payment/);
  });
  it('a workload whose runs do not use a pool refuses one', () => {
    const e = err(() => parseJobCreate({ type: 'run', workload: 'tproch', tproch: {}, target: { ...base, pool: { connections: [{ name: 'a' }] } } }, 1));
    expect(e.field).toBe('target.pool');
    expect(e.message).toMatch(/TPROC-H runs do not go through a connect pool/);
  });
  it('routes: an operation left out uses the first connection', () => {
    const r = poolRoutes({ connections: [{ name: 'a' }, { name: 'b' }], ops: { payment: { connections: ['b', 'a'], policy: 'round_robin' } } }, ['neworder', 'payment']);
    expect(r).toEqual([{ conns: [0], policy: 'first_named' }, { conns: [1, 0], policy: 'round_robin' }]);
  });
  it('keeps pool passwords secret: redacted in configs, scrubbed from text', () => {
    const t = parseTarget({ ...base, pool: { connections: [{ name: 'a', password: 'pool-secret-1' }, { name: 'b', user: 'u2', password: 'pool-secret-2' }] } });
    const r = JSON.stringify(redact({ target: t }));
    expect(r).not.toMatch(/pool-secret|base-secret/);
    expect(r).toContain(REDACTED);
    expect(secretValues(t)).toEqual(expect.arrayContaining(['base-secret', 'pool-secret-1', 'pool-secret-2']));
    expect(scrub('auth failed for pool-secret-2', secretValues(t))).toBe(`auth failed for ${REDACTED}`);
  });
});
