import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../dist/app.js';
import { makeApp, waitJob, type SledgeApp } from './helpers.js';

/**
 * Issue 30 item 2: the HammerDB session's passwords are bound to the
 * connection they were set with. `diset tpcc pg_pass X`, then `diset
 * connection pg_port <other>`, then checkschema sent X in clear to the other
 * port. Now every verb that connects refuses, saying to set the password
 * again, and a fake server on the other port receives no connection; setting
 * the password again binds it to the connection as it is then. Also for
 * MariaDB, the superuser password, TPROC-H's own password, a connect pool
 * file and a restart. Live PostgreSQL at 127.0.0.1:5432 for the one job that
 * connects: run with flock /tmp/sledge-db.lock.
 */

type Reply = { success?: { message: string }; error?: { message: string } };
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const hdb = async (s: SledgeApp, url: string, body = ''): Promise<Reply> => JSON.parse((await s.app.inject({ method: 'POST', url, payload: body, headers: form })).body) as Reply;
const diset = (s: SledgeApp, dict: string, key: string, value: string | number) => hdb(s, '/diset', JSON.stringify({ dict, key, value: String(value) }));
const ok = (r: Reply) => expect(r.error?.message, JSON.stringify(r)).toBeUndefined();

describe('HammerDB session passwords are bound to their connection', () => {
  let s: SledgeApp & { dataDir: string };
  let fake: Server;
  let fakePort = 0;
  let connections = 0;
  const received: Buffer[] = [];
  const PASS = 'Hdb-B0und-pw-5150';
  const SUPER = 'Hdb-Sup3r-pw-5150';
  const TPCH = 'Hdb-Tpch-pw-5150';
  const MARIA = 'Hdb-Maria-pw-5150';
  const jobCount = () => s.store.listJobs({ limit: 1 }).total;

  beforeAll(async () => {
    s = await makeApp();
    fake = createServer((sock: Socket) => {
      connections++;
      sock.on('data', (d) => received.push(d));
      sock.on('error', () => undefined);
      setTimeout(() => sock.destroy(), 2000).unref();
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    fakePort = (fake.address() as { port: number }).port;
  });
  afterAll(async () => {
    await s.app.close();
    await new Promise<void>((r) => fake.close(() => r()));
  });

  const nothingSent = async () => {
    await new Promise((r) => setTimeout(r, 200));
    expect(connections).toBe(0);
    const all = Buffer.concat(received).toString('latin1');
    for (const p of [PASS, SUPER, TPCH, MARIA]) expect(all).not.toContain(p);
  };

  /** Every verb that connects refuses with `pattern`, and no job is created. */
  const refusedEverywhere = async (app: SledgeApp, pattern: RegExp) => {
    const before = app.store.listJobs({ limit: 1 }).total;
    ok(await hdb(app, '/loadscript'));
    for (const verb of ['/checkschema', '/buildschema', '/deleteschema', '/vurun']) {
      const r = await hdb(app, verb);
      expect(r.error?.message, `${verb}: ${JSON.stringify(r)}`).toMatch(pattern);
    }
    expect(app.store.listJobs({ limit: 1 }).total).toBe(before);
  };

  it('pg_pass then pg_port: every connecting verb refuses, saying to set the password again; the other port gets 0 connections', async () => {
    ok(await hdb(s, '/dbset', '{"db":"pg"}'));
    ok(await diset(s, 'tpcc', 'pg_user', 'sledge_hdbbind'));
    ok(await diset(s, 'tpcc', 'pg_dbase', 'sledge_hdbbind'));
    ok(await diset(s, 'tpcc', 'pg_pass', PASS));
    ok(await diset(s, 'connection', 'pg_port', fakePort));
    await refusedEverywhere(s, /^pg_pass was set for another connection: pg_port changed since.*Set it again for this connection: diset tpcc pg_pass <password>$/);
    await nothingSent();
  });

  it('is still refused after a restart on the same data directory (the binding is saved with the session)', async () => {
    await s.app.close();
    s = { ...(await buildApp({ dataDir: s.dataDir, logger: false, uiDir: null })), dataDir: s.dataDir };
    await refusedEverywhere(s, /^pg_pass was set for another connection: pg_port changed since/);
    await nothingSent();
  });

  it('setting the password again binds it to the connection as it is now, and the verb then connects', async () => {
    // Bound to the other port now: back on 5432 it is refused again.
    const rebound = await diset(s, 'tpcc', 'pg_pass', PASS);
    expect(rebound.success?.message).toBe('Changed tpcc:pg_pass from ******** to ******** for PostgreSQL');
    ok(await diset(s, 'connection', 'pg_port', 5432));
    expect((await hdb(s, '/deleteschema')).error?.message).toMatch(/^pg_pass was set for another connection: pg_port changed since/);
    // Set again for 5432: the job is created and runs against the real server.
    ok(await diset(s, 'tpcc', 'pg_pass', PASS));
    expect((await diset(s, 'tpcc', 'pg_pass', PASS)).success?.message).toMatch(/is the same as existing value \*+, no change made/);
    const r = await hdb(s, '/deleteschema');
    const id = /JOBID=([0-9A-F]{24})$/.exec(r.success?.message ?? '')?.[1];
    expect(id, JSON.stringify(r)).toBeDefined();
    expect(['completed', 'failed']).toContain((await waitJob(s, id!)).status);
    ok(await hdb(s, '/vudestroy'));
    await nothingSent();
  }, 120_000);

  it('the superuser password is bound to the superuser name and the endpoint', async () => {
    ok(await diset(s, 'tpcc', 'pg_superuserpass', SUPER));
    ok(await diset(s, 'tpcc', 'pg_superuser', 'someone_else'));
    await refusedEverywhere(s, /^pg_superuserpass was set for another connection: pg_superuser changed since.*diset tpcc pg_superuserpass <password>$/);
    ok(await diset(s, 'tpcc', 'pg_superuser', 'postgres'));
    await nothingSent();
  });

  it("TPROC-H's own password (pg_tpch_pass) is bound the same way", async () => {
    ok(await hdb(s, '/dbset', '{"bm":"TPC-H"}'));
    ok(await diset(s, 'tpch', 'pg_tpch_pass', TPCH));
    // HammerDB's default pg_host is localhost.
    expect((await diset(s, 'connection', 'pg_host', '127.0.0.1')).success?.message).toMatch(/^Changed connection:pg_host from localhost to 127\.0\.0\.1/);
    const r = await hdb(s, '/checkschema');
    expect(r.error?.message).toMatch(/^pg_tpch_pass was set for another connection: pg_host changed since.*diset tpch pg_tpch_pass <password>$/);
    ok(await diset(s, 'connection', 'pg_host', 'localhost'));
    ok(await hdb(s, '/dbset', '{"bm":"TPC-C"}'));
    await nothingSent();
  });

  it('a connect pool file whose connection points elsewhere without its own pg_pass does not get the session password', async () => {
    const xml = `<connpool><connections>
<c1><pg_host>localhost</pg_host><pg_port>5432</pg_port><pg_user>sledge_hdbbind</pg_user><pg_pass>c1-own-pw</pg_pass><pg_dbase>sledge_hdbbind</pg_dbase></c1>
<c2><pg_host>localhost</pg_host><pg_port>${fakePort}</pg_port><pg_dbase>sledge_hdbbind</pg_dbase></c2>
</connections><sprocs><neworder><connections>c1 c2</connections><policy>round_robin</policy></neworder></sprocs></connpool>`;
    expect((await s.app.inject({ method: 'PUT', url: '/api/v1/pools/hammerdb/pg', payload: { xml } })).statusCode).toBe(200);
    ok(await diset(s, 'tpcc', 'pg_connect_pool', 'true'));
    ok(await hdb(s, '/loadscript'));
    const before = jobCount();
    const r = await hdb(s, '/vurun');
    expect(r.error?.message, JSON.stringify(r)).toMatch(/^pool connection c2 of pgcpool\.xml changes pg_port but has no pg_pass of its own: the session's pg_pass goes only to the connection it was set for\. Add <pg_pass> to c2 in pgcpool\.xml$/);
    expect(jobCount()).toBe(before);
    ok(await diset(s, 'tpcc', 'pg_connect_pool', 'false'));
    await nothingSent();
  });

  it('MariaDB: maria_pass is bound to maria_host, maria_port and maria_user', async () => {
    ok(await hdb(s, '/dbset', '{"db":"maria"}'));
    ok(await diset(s, 'tpcc', 'maria_pass', MARIA));
    ok(await diset(s, 'connection', 'maria_port', fakePort));
    await refusedEverywhere(s, /^maria_pass was set for another connection: maria_port changed since.*diset tpcc maria_pass <password>$/);
    ok(await diset(s, 'connection', 'maria_port', 3306));
    ok(await diset(s, 'tpcc', 'maria_user', 'someone_else'));
    expect((await hdb(s, '/checkschema')).error?.message).toMatch(/^maria_pass was set for another connection: maria_user changed since/);
    await nothingSent();
  });
});
