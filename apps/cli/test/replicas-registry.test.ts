/**
 * The primary's list of replicas stays bounded: a lost replica leaves it
 * after the prune time (SLEDGE_REPLICA_PRUNE_MS), and names beyond its limit
 * (SLEDGE_REPLICA_MAX) are refused while every listed replica is live, so a
 * NATS token holder announcing replica after replica cannot grow it. Real
 * parts: a nats-server of the test's own, a `sledge replica` process, the
 * replica simulator (each simulated replica a real identity speaking the
 * wire protocol) and a primary (the server app, in process). No database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '@sledge/server';
import type { ReplicaList } from '@sledge/protocol';
import { appApi, startNats, startReplica, waitFor } from './nats-harness.js';
import { startSimProcess } from './replica-sim.js';

const TOKEN = 'registry-n4ts-T0ken';
const LOSS_MS = 1500;
const PRUNE_MS = 3000;
const MAX = 5;

type App = Awaited<ReturnType<typeof buildApp>>;

describe('the replica list: lost replicas pruned, a bound on names', () => {
  let nats: { url: string; stop: () => Promise<void> };
  let s: App;
  let dataDir: string;
  const serverLog: string[] = [];
  const { get } = appApi(() => s);
  const list = async () => (await get<ReplicaList>('/api/v1/replicas')).replicas;
  const logged = (re: RegExp) => serverLog.some((l) => re.test((JSON.parse(l) as { msg: string }).msg));

  beforeAll(async () => {
    nats = await startNats(TOKEN);
    dataDir = mkdtempSync(join(tmpdir(), 'sledge-replicas-registry-'));
    s = await buildApp({
      dataDir,
      uiDir: null,
      logger: { level: 'info', stream: { write: (l: string) => void serverLog.push(l) } },
      nats: { url: nats.url, token: TOKEN, lossMs: LOSS_MS, pruneMs: PRUNE_MS, maxReplicas: MAX },
    });
  });

  afterAll(async () => {
    await s?.app.close();
    await nats?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('a lost replica leaves the list after the prune time', async () => {
    const p1 = startReplica('p1', nats.url, { token: TOKEN });
    await waitFor(async () => (await list()).some((r) => r.name === 'p1' && r.state === 'ready'), 'p1 ready');
    p1.proc.kill('SIGKILL');
    await p1.exited;
    await waitFor(async () => (await list()).find((r) => r.name === 'p1')?.state === 'lost', 'p1 lost');
    await waitFor(async () => (await list()).length === 0, 'p1 pruned', 15_000);
    expect(logged(/^replica p1 leaves the list: lost since \S+$/)).toBe(true);
  }, 60_000);

  it(`holds at most ${MAX} replicas: further names are refused while all of them are live, and accepted once they are gone`, async () => {
    const sim = await startSimProcess({ url: nats.url, token: TOKEN, replicas: 12, namePrefix: 'flood' });
    try {
      await waitFor(async () => (await list()).length === MAX, `${MAX} listed`);
      // Every simulated replica heartbeats every second: the list never grows past its bound.
      for (let i = 0; i < 15; i++) {
        expect((await list()).length).toBe(MAX);
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(logged(new RegExp(`^this primary lists ${MAX} replicas, its limit \\(SLEDGE_REPLICA_MAX\\), none of them lost: replica flood\\d+ \\(host \\S+\\) and further new names are refused$`))).toBe(true);
    } finally {
      await sim.stop();
    }
    // They left: lost, then pruned; a new replica joins.
    await waitFor(async () => (await list()).length === 0, 'the simulated replicas pruned', 15_000);
    const p2 = startReplica('p2', nats.url, { token: TOKEN });
    try {
      await waitFor(async () => (await list()).some((r) => r.name === 'p2' && r.state === 'ready'), 'p2 ready');
    } finally {
      p2.proc.kill('SIGTERM');
      await p2.exited;
    }
  }, 90_000);
});
