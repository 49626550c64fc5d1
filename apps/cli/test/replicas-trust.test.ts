/**
 * Trust across machines (docs/security.md, "Scale-out trust model"), on real
 * parts: a nats-server of the test's own with one shared token, a primary
 * (the server app, in process), `sledge replica` processes and PostgreSQL.
 *
 * "mallory" holds what a replica that is not placed on a run holds: the NATS
 * token and a replica identity of its own that the primary lists. It reads
 * every subject (`>`) from the start and forges what it can.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import { buildApp } from '@sledge/server';
import { type Job, type ReplicaList, type TproccResult, type VuStatus } from '@sledge/protocol';
import { controlContext, encode, signed, unsigned, verified, type FrameMsg, type Hello, type PrimaryMsg, type ReplyMsg } from '@sledge/server/replicas/wire';
import { ReplicaLink } from '@sledge/server/replicas/link';
import { Signer, fingerprint, newIdentity, seal, verifierOf } from '@sledge/server/replicas/seal';
import { FV_SLOTS, F_SLOTS, KINDS, K_COMMIT, K_ROLLBACK, RUN_ABORT } from '@sledge/server/shared/layout';
import { VERSION } from '@sledge/server/version';
import { appApi, startNats, startRelay, startReplica, waitFor, type ReplicaProc } from './nats-harness.js';
import { PACED } from './paced.js';
import { copyPgTprocc } from '../../../server/test/live-template.js';

const TOKEN = 'trust-n4ts-T0ken';
const DB = 'sledge_replicas_trust';
const SECRET = 'Trust-Target-Pw-7f3e';
const SUPER_SECRET = 'Trust-Super-Pw-91cd';
// Trust authentication accepts any password: the run still sends both, sealed to the placed replica.
const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: DB, password: SECRET, database: DB, superuser: 'postgres', superuserPassword: SUPER_SECRET };
const OPS = 5;
const FORGED = 999_999_999;

type App = Awaited<ReturnType<typeof buildApp>>;
type Result = TproccResult & { replicas: { name: string; transactions: number; clientTpm: number; finishedVus: number; lostAt?: number }[]; vusFinished: number };

/** The names (application_name) of the client sessions open on the test database. */
const sessionNames = (): string[] =>
  execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-Atc', `select coalesce(nullif(application_name, ''), '(no name)') from pg_stat_activity where datname = '${DB}' and backend_type = 'client backend'`], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
/** Wait for `check` over the session names; on a time-out the error names the sessions still open. */
const waitSessions = (check: (names: string[]) => boolean, what: string, timeoutMs: number) =>
  waitFor(() => check(sessionNames()), what, timeoutMs).catch((e: Error) => {
    throw new Error(`${e.message}; open on ${DB}: ${sessionNames().join(', ') || 'none'}`);
  });

/** A tick as a replica of 2 VUs sends it (main's plain JSON frame shape), every counter FORGED, with a forged result line. */
const forgedTick = () => ({
  t: 'tick',
  ts: Date.now(),
  slices: { counters: new Array(2 * OPS * KINDS).fill(FORGED), faults: new Array(2 * OPS * F_SLOTS + 2 * FV_SLOTS).fill(0), states: [2, 2], ash: [0, 0, 0, 0] },
  hist: { neworder: [100, 1000] },
  lines: [{ vu: 2, text: `TEST RESULT : System achieved ${FORGED} NOPM from ${FORGED} PostgreSQL TPM` }],
});
const forgedFrames = () => [forgedTick(), { t: 'fatal', error: { code: 'SLEDGE_E_DB', message: 'forged fatal' } }, { t: 'profile', vus: [] }, { t: 'done', reason: 'ended' }];

describe('scale-out trust: sealed prepare, signed frames and control, one identity per name, jobs the primary no longer runs', () => {
  let nats: { url: string; stop: () => Promise<void> };
  let s: App;
  let dataDir: string;
  let r1: ReplicaProc;
  let d1: ReplicaProc | undefined;
  let mallory: { nc: NatsConnection; js: JetStreamClient; link: ReplicaLink; id: ReturnType<typeof newIdentity> };
  /** Every message mallory received on `>` (and on sledge.replica.ctl.>). */
  const seen: { subject: string; data: Uint8Array }[] = [];
  const serverLog: string[] = [];

  const { post, get, waitJob } = appApi(() => s);
  const replica = async (name: string) => (await get<ReplicaList>('/api/v1/replicas')).replicas.find((r) => r.name === name);
  const output = async (id: string) => (await get<{ lines: { text: string }[] }>(`/api/v1/jobs/${id}/output?limit=10000`)).lines.map((l) => l.text).join('\n');
  // Every run is paced (./paced.ts): the subject is frames, control and sessions, not the load level.
  const runOn = (name: string, tprocc: Record<string, unknown>) => post('/api/v1/jobs', { type: 'run', target, placement: { on: 'replicas', replicas: [name] }, tprocc: { rampup: 0, tcRefreshSec: 2, ...PACED, ...tprocc } });
  /** A replica's public keys as its heartbeats announce them (what every token holder sees), for the key the primary lists. */
  const keysOf = (name: string, fp: string) => {
    const hb = seen.map((m) => (m.subject === `sledge.replica.hb.${name}` ? unsigned<Hello>(m.data) : null)).find((h) => h?.k === 'hb' && fingerprint(h.keys.sign) === fp);
    return hb!.keys;
  };

  beforeAll(async () => {
    nats = await startNats(TOKEN);
    dataDir = mkdtempSync(join(tmpdir(), 'sledge-replicas-trust-'));
    s = await buildApp({
      dataDir,
      uiDir: null,
      logger: { level: 'info', stream: { write: (l: string) => void serverLog.push(l) } },
      // A replica cut off for the length of a stop is not lost to the primary (the last test).
      nats: { url: nats.url, token: TOKEN, lossMs: 60_000 },
    });
    const nc = await connect({ servers: nats.url, token: TOKEN, name: 'mallory' });
    for (const subject of ['>', 'sledge.replica.ctl.>']) nc.subscribe(subject, { callback: (err, m) => void (err ? undefined : seen.push({ subject: m.subject, data: m.data })) });
    const id = newIdentity();
    const link = new ReplicaLink(nc, jetstream(nc), 'mallory', {
      announce: () => ({ version: VERSION, host: 'mallory-host', cores: 4, drivers: ['postgresql'], cpuPct: null, processCpuPct: null, system: { hostname: 'mallory-host', cpuModel: 'forged', cpuCount: 4, memoryBytes: 1024 ** 3, os: 'Linux', kernel: 'forged' }, cpu: { ts: Date.now(), cpus: [], iops: 0, mbps: 0 } }),
      job: () => null,
      control: () => ({}),
      drop: () => undefined,
    }, { identity: id });
    link.start();
    mallory = { nc, js: jetstream(nc), link, id };
    r1 = startReplica('r1', nats.url, { token: TOKEN });
    await waitFor(async () => (await replica('r1'))?.state === 'ready' && (await replica('mallory'))?.state === 'ready', 'r1 and mallory ready');
    // The schema: a copy of the prebuilt 1-warehouse template (server/test/live-template.ts), as a build job on the
    // primary would leave it (the build is not this file's subject; a build job runs on the primary, never on a replica).
    await copyPgTprocc({ database: DB, user: DB, password: SECRET });
  }, 300_000);

  afterAll(async () => {
    const del = await post('/api/v1/jobs', { type: 'delete', target }).catch(() => null);
    if (del?.status === 201) await waitJob(String(del.body['id'])).catch(() => undefined);
    for (const r of [r1, d1]) r?.proc.kill('SIGTERM');
    await Promise.all([r1, d1].map((r) => r?.exited));
    await mallory?.link.close();
    await s?.app.close();
    await nats?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  let jobA = '';

  it('a second replica announcing a live replica\'s name is refused and named (it exits with an error); the list does not flap; runs go to the first', async () => {
    const before = (await replica('r1'))!;
    expect(before.key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const dup = startReplica('r1', nats.url, { token: TOKEN });
    let code: number | null | undefined;
    void dup.exited.then((c) => (code = c));
    // While the newcomer tries, the list keeps the first replica: same key, same join time, never lost.
    await waitFor(async () => {
      const now = (await replica('r1'))!;
      expect({ key: now.key, joinedAt: now.joinedAt, host: now.host, state: now.state }).toEqual({ key: before.key, joinedAt: before.joinedAt, host: before.host, state: 'ready' });
      return code !== undefined;
    }, 'the second r1 to exit', 60_000);
    expect(code).toBe(2);
    expect(dup.log()).toMatch(new RegExp(`error: SLEDGE_E_CONFLICT: the primary refused replica r1: replica name r1 is held by a live replica \\(host \\S+, key ${before.key}, last heartbeat [\\d.]+ s ago\\): give this replica another --name`));
    const warned = serverLog.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level === 40 && /^replica name r1 is held by a live replica .* another replica \(host \S+, key \S+\) announced the same name and is refused: give one of them another --name$/.test(l.msg));
    expect(warned).toHaveLength(1);
    const after = (await replica('r1'))!;
    expect([after.key, after.joinedAt, after.state]).toEqual([before.key, before.joinedAt, 'ready']);
    expect((await get<ReplicaList>('/api/v1/replicas')).replicas.map((r) => r.name)).toEqual(['mallory', 'r1']);

    const r = await runOn('r1', { vus: 2, duration: 0.1 });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    jobA = String(r.body['id']);
    const job = await waitJob(jobA);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    expect((job.result as Result).replicas.map((x) => [x.name, x.finishedVus])).toEqual([['r1', 2]]);
  }, 180_000);

  it('a token holder with a replica identity of its own, not placed, reads no password; its forged frames and control change nothing', async () => {
    const r = await runOn('r1', { vus: 2, duration: 0.4 });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const id = String(r.body['id']);
    await waitFor(async () => (await get<Job>(`/api/v1/jobs/${id}`)).status === 'measuring', 'measuring', 60_000);
    await waitFor(() => seen.some((m) => m.subject === `sledge.frames.${id}.r1` && unsigned<FrameMsg>(m.data)?.f.t === 'tick'), 'a tick of r1');
    const subject = `sledge.frames.${id}.r1`;
    let forged = 0;
    const publish = async (subj: string, data: Uint8Array) => {
      await mallory.js.publish(subj, data);
      forged++;
    };
    // Frames in the old plain-JSON shape; frames mallory signed (as r1, then under its own name: it is not placed).
    for (const f of forgedFrames()) await publish(subject, encode(f));
    for (const f of forgedFrames()) await publish(subject, signed(mallory.id.signer, { k: 'frame', job: id, name: 'r1', n: 1e9 + forged, f }));
    for (const f of forgedFrames()) await publish(`sledge.frames.${id}.mallory`, signed(mallory.id.signer, { k: 'frame', job: id, name: 'mallory', n: forged, f }));
    // r1's own frames replayed: job A's (another job), and this job's first (an old number).
    for (const m of seen.filter((x) => x.subject === `sledge.frames.${jobA}.r1`)) await publish(subject, m.data);
    await publish(subject, seen.find((x) => x.subject === subject)!.data);

    // Control: plain JSON aborts (old shape and subject); an abort that claims the primary's boot and key but mallory signed;
    // an abort sealed to r1 that mallory signed as a primary of its own.
    const abort = { op: 'run', jobId: id, run: RUN_ABORT };
    const beat = seen.map((m) => (m.subject === 'sledge.primary.hb' ? unsigned<PrimaryMsg>(m.data) : null)).find((b) => b?.k === 'beat')!;
    const fp = (await replica('r1'))!.key!;
    const k1 = keysOf('r1', fp);
    const ctlSubject = `sledge.replica.ctl.r1.${fp}`;
    const sealedTo = (boot: string, seq: number) => seal(k1.seal, encode(abort), controlContext(boot, seq, fp));
    const noAnswer = async (subj: string, data: Uint8Array) => expect(mallory.nc.request(subj, data, { timeout: 1500 })).rejects.toThrow();
    await noAnswer('sledge.replica.ctl.r1', encode(abort));
    await noAnswer(ctlSubject, encode(abort));
    await noAnswer(ctlSubject, signed(mallory.id.signer, { k: 'ctl', boot: beat.boot, pk: beat.pk, seq: beat.seq + 1e6, to: fp, sealed: sealedTo(beat.boot, beat.seq + 1e6) }));
    const fake = Signer.generate();
    const fakeBoot = randomUUID();
    const answer = await mallory.nc.request(ctlSubject, signed(fake, { k: 'ctl', boot: fakeBoot, pk: fake.pub, seq: 1, to: fp, sealed: sealedTo(fakeBoot, 1) }), { timeout: 3000 });
    const reply = verified<ReplyMsg>(answer.data, verifierOf(k1.sign)!)!;
    expect(reply.r).toMatchObject({ ok: false, error: { code: 'SLEDGE_E_NOT_FOUND' } });
    expect(reply.r.ok ? '' : reply.r.error.message).toMatch(new RegExp(`runs no VUs of job ${id} for primary ${fakeBoot}`));

    const job = await waitJob(id);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const res = job.result as Result;
    expect(res.line).not.toContain(String(FORGED));
    expect(res.vusFinished).toBe(2);
    const [x] = res.replicas;
    expect([x!.name, x!.finishedVus, x!.lostAt]).toEqual(['r1', 2, undefined]);
    expect(x!.transactions).toBeGreaterThan(0);
    expect(x!.transactions).toBeLessThan(1e6);
    expect(x!.clientTpm).toBeLessThan(1e7);
    expect(res.transactions).toBe(x!.transactions);
    expect(r1.log()).not.toContain(`stopping the VUs of job ${id}`);
    expect(r1.log()).toMatch(/ignored a primary ctl message: (malformed|not signed by the key it names)/);

    // The VU grid holds exactly the counters of r1's last frame (verified with r1's key), none of the forged ones.
    const genuine = seen
      .filter((m) => m.subject === subject)
      .map((m) => verified<FrameMsg>(m.data, verifierOf(k1.sign)!))
      .filter((f): f is FrameMsg => f !== null && f.job === id && f.f.t === 'tick');
    const last = genuine.sort((a, b) => a.n - b.n).at(-1)!.f as Extract<FrameMsg['f'], { t: 'tick' }>;
    const vus = (await get<VuStatus[]>(`/api/v1/jobs/${id}/vus`)).filter((v) => v.vu >= 2);
    const sum = (vu: number, kind: number) => Array.from({ length: OPS }, (_, op) => last.slices.counters[vu * OPS * KINDS + op * KINDS + kind]!).reduce((a, b) => a + b, 0);
    expect(vus.map((v) => [v.vu, v.commits, v.rollbacks])).toEqual([0, 1].map((i) => [i + 2, sum(i, K_COMMIT), sum(i, K_ROLLBACK)]));

    // Every forged or replayed frame was dropped, and said so; no genuine one was.
    const out = await output(id);
    expect(out).not.toContain(String(FORGED));
    expect(out).toContain(`Dropped a frame on sledge.frames.${id}.`);
    expect(out).toContain(`${forged} frames on this job's subjects were dropped`);
    expect(serverLog.filter((l) => l.includes(`job ${id}: a frame on sledge.frames.${id}.`) && (JSON.parse(l) as { level: number }).level === 40)).toHaveLength(1);

    // Mallory saw both prepares go to r1 and could open neither; no message it received holds either password.
    const prepares = seen.filter((m) => m.subject === ctlSubject && unsigned<PrimaryMsg>(m.data)?.boot === beat.boot);
    expect(prepares.length).toBeGreaterThanOrEqual(2);
    for (const m of prepares) {
      const c = unsigned<Extract<PrimaryMsg, { k: 'ctl' }>>(m.data)!;
      expect(mallory.id.opener.open(c.sealed, controlContext(c.boot, c.seq, c.to))).toBeNull();
    }
    expect(seen.length).toBeGreaterThan(100);
    for (const m of seen) {
      const bytes = Buffer.from(m.data);
      expect(bytes.includes(SECRET), m.subject).toBe(false);
      expect(bytes.includes(SUPER_SECRET), m.subject).toBe(false);
    }
  }, 180_000);

  it('a replica drops a job its primary no longer runs: a run stopped while the replica was cut off leaves no load behind', async () => {
    const relay = await startRelay(nats.url);
    try {
      // It would stop on its own after 10 minutes of silence: the primary's beat must end the job first.
      d1 = startReplica('d1', relay.url, { token: TOKEN, extra: ['--primary-loss-ms', '600000'] });
      await waitFor(async () => (await replica('d1'))?.state === 'ready', 'd1 ready');
      const r = await runOn('d1', { vus: 1, duration: 2 });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const id = String(r.body['id']);
      await waitFor(async () => (await get<Job>(`/api/v1/jobs/${id}`)).status === 'measuring', 'measuring', 60_000);
      await waitSessions((n) => n.length >= 1, "d1's VU session", 60_000);
      relay.cut();
      expect((await post(`/api/v1/jobs/${id}/stop`, {})).status).toBe(202);
      expect((await waitJob(id, 60_000)).status).toBe('stopped');
      // The stop never reached d1: its VU still runs against the database. The primary's own
      // sessions (its monitor) close with the stop; what is left is d1's VU alone.
      await waitSessions((n) => n.length >= 1 && n.every((x) => x.startsWith('sledge-vu-')), "only d1's VU session left", 10_000);
      expect((await replica('d1'))!.state).not.toBe('lost');
      relay.restore();
      await waitFor(async () => (await replica('d1'))?.state === 'ready', 'd1 ready again', 20_000);
      await waitSessions((n) => n.length === 0, 'no session left on the database', 10_000);
      expect(d1.log()).toMatch(new RegExp(`stopping the VUs of job ${id}: its primary no longer runs job ${id} here`));
    } finally {
      d1?.proc.kill('SIGTERM');
      await d1?.exited;
      await relay.close();
    }
  }, 180_000);
});
