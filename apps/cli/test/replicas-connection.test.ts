/**
 * The primary's view of scale-out when things end: its own NATS connection
 * lost (nats-server killed) is logged and reported by GET /replicas as
 * reconnecting, runs on replicas are refused meanwhile, and it reads
 * connected again once NATS is back; a replica stopped cleanly (SIGTERM)
 * says it leaves and is listed as left, not lost, while one killed is lost.
 * Real parts: a nats-server of the test's own, `sledge replica` processes,
 * the primary (the server app, in process). No database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '@sledge/server';
import type { ReplicaList } from '@sledge/protocol';
import { appApi, startNats, startReplica, waitFor } from './nats-harness.js';

const TOKEN = 'connection-n4ts-T0ken';
const LOSS_MS = 1500;

type App = Awaited<ReturnType<typeof buildApp>>;

describe('the primary notices a lost NATS connection and a replica that leaves', () => {
  let nats: Awaited<ReturnType<typeof startNats>>;
  let s: App;
  let dataDir: string;
  const serverLog: string[] = [];
  const { get, post } = appApi(() => s);
  const replicas = () => get<ReplicaList>('/api/v1/replicas');
  const stateOf = async (name: string) => (await replicas()).replicas.find((r) => r.name === name)?.state;
  const logged = (re: RegExp) => serverLog.some((l) => re.test((JSON.parse(l) as { msg: string }).msg));

  beforeAll(async () => {
    nats = await startNats(TOKEN);
    dataDir = mkdtempSync(join(tmpdir(), 'sledge-replicas-connection-'));
    s = await buildApp({
      dataDir,
      uiDir: null,
      logger: { level: 'info', stream: { write: (l: string) => void serverLog.push(l) } },
      nats: { url: nats.url, token: TOKEN, lossMs: LOSS_MS },
    });
  });

  afterAll(async () => {
    await s?.app.close();
    await nats?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('a replica stopped with SIGTERM is listed as left (logged "left"); one killed with SIGKILL as lost', async () => {
    const clean = startReplica('clean1', nats.url, { token: TOKEN });
    const killed = startReplica('killed1', nats.url, { token: TOKEN });
    await waitFor(async () => (await stateOf('clean1')) === 'ready' && (await stateOf('killed1')) === 'ready', 'both ready');
    clean.proc.kill('SIGTERM');
    expect(await clean.exited).toBe(0);
    expect(clean.log()).toMatch(/replica clean1 leaving/);
    killed.proc.kill('SIGKILL');
    await killed.exited;
    await waitFor(async () => (await stateOf('killed1')) === 'lost', 'killed1 lost');
    // Past the loss timeout too, the one that left says so.
    expect(await stateOf('clean1')).toBe('left');
    const list = await replicas();
    expect(list.replicas.map((r) => [r.name, r.state])).toEqual([
      ['clean1', 'left'],
      ['killed1', 'lost'],
    ]);
    expect(logged(/^replica clean1 left \(it stopped cleanly\)$/)).toBe(true);
    expect(logged(/^replica clean1 lost/)).toBe(false);
    expect(logged(/^replica killed1 lost: no heartbeat since/)).toBe(true);
  }, 60_000);

  it('nats-server killed: GET /replicas says reconnecting, the log says so, runs on replicas are refused; back when NATS is', async () => {
    const r = startReplica('r1', nats.url, { token: TOKEN });
    await waitFor(async () => (await stateOf('r1')) === 'ready', 'r1 ready');
    expect((await replicas()).connection).toMatchObject({ state: 'connected' });

    await nats.kill();
    await waitFor(async () => (await replicas()).connection?.state === 'reconnecting', 'the primary notices', 10_000);
    const down = await replicas();
    expect(down).toMatchObject({ enabled: true, authenticated: true, connection: { state: 'reconnecting' } });
    expect(down.connection!.since).toBeGreaterThan(0);
    expect(logged(/^NATS connection to nats:\/\/127\.0\.0\.1:\d+ lost: reconnecting/)).toBe(true);
    // Its heartbeats cannot arrive: r1 turns lost (not left: it said nothing).
    await waitFor(async () => (await stateOf('r1')) === 'lost', 'r1 lost while NATS is down');
    const refused = await post('/api/v1/jobs', { type: 'run', target: { engine: 'sqlite', file: 'x.sqlite' }, tprocc: { vus: 1 }, placement: { on: 'replicas' } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: { code: 'SLEDGE_E_CONFLICT', field: 'placement' } });
    expect(JSON.stringify(refused.body)).toContain('NATS connection is lost (reconnecting)');

    // NATS back on the same port and directory: connected again, and the replica (reconnecting too) is ready again.
    nats = await startNats(TOKEN, { port: nats.port, dir: nats.dir });
    await waitFor(async () => (await replicas()).connection?.state === 'connected', 'the primary reconnects', 20_000);
    expect(logged(/^NATS connection to nats:\/\/127\.0\.0\.1:\d+ is back$/)).toBe(true);
    await waitFor(async () => (await stateOf('r1')) === 'ready', 'r1 ready again', 20_000);
    r.proc.kill('SIGTERM');
    await r.exited;
    await waitFor(async () => (await stateOf('r1')) === 'left', 'r1 left');
  }, 90_000);
});
