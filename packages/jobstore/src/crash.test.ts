import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { JobStore } from './store.js';
import { tempDir } from './test/helpers.js';

const FIXTURE = fileURLToPath(new URL('./test/crash-writer.mjs', import.meta.url));
const DIST = fileURLToPath(new URL('../dist/index.js', import.meta.url));

interface Report {
  seq: number;
  ts: number;
}

/** Run the writer, kill it with SIGKILL after `runMs`, and return what it reported. */
async function runAndKill(path: string, runMs: number): Promise<{ jobId: string; reports: Report[]; killedAt: number }> {
  const child = spawn(process.execPath, [FIXTURE, path], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<NodeJS.Signals | number | null>((res) => child.on('exit', (code, signal) => res(signal ?? code)));
  const readyBy = Date.now() + 15000;
  while (!/^READY [0-9A-F]{24}$/m.test(out)) {
    if (child.exitCode !== null) throw new Error(`crash writer exited early: ${err}`);
    if (Date.now() > readyBy) throw new Error(`crash writer not ready: ${err}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, runMs));
  const killedAt = Date.now();
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  const lines = out.split('\n');
  const jobId = (lines.find((l) => l.startsWith('READY ')) ?? '').slice(6);
  const reports = lines
    .filter((l) => /^\d+ \d+$/.test(l))
    .map((l) => {
      const [seq, ts] = l.split(' ').map(Number);
      return { seq: seq ?? 0, ts: ts ?? 0 };
    });
  return { jobId, reports, killedAt };
}

describe('crash safety', () => {
  it('a SIGKILLed writer loses at most the last second, leaves contiguous seqs and an intact file', async () => {
    expect(existsSync(DIST), 'build first: pnpm --filter @sledge/jobstore build').toBe(true);
    const path = join(tempDir(), 'data', 'sledge.db');
    const { jobId, reports, killedAt } = await runAndKill(path, 3500);
    expect(reports.length).toBeGreaterThan(100);
    expect(reports.map((r) => r.seq)).toEqual(reports.map((_, i) => i + 1));

    // The file exactly as the killed process left it (WAL and all) is intact.
    const raw = new Database(path);
    try {
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      raw.close();
    }

    const store = JobStore.open(path);
    try {
      expect(store.interruptedOnOpen).toEqual([jobId]);
      const job = store.getJob(jobId);
      expect(job?.status).toBe('interrupted');
      expect(job?.error).toEqual({ code: 'SLEDGE_E_INTERRUPTED', message: 'the server stopped while the job was running' });
      const { lines, total } = store.getOutput(jobId, { limit: 100000 });
      // It ended at its last sign of life: the newest line (or counter sample) the store kept, before the kill, not at this open.
      const newest = Math.max(...lines.map((l) => l.ts), ...store.getTcount(jobId).engine.map((e) => e.ts));
      expect(Date.parse(job?.endedAt ?? '')).toBe(newest);
      expect(newest).toBeLessThanOrEqual(killedAt);
      expect(total).toBe(lines.length);
      // Contiguous 1..N: no gaps, no duplicates.
      expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i + 1));
      // Every stored line is exactly the one the writer reported for that seq.
      for (const l of lines) {
        const r = reports[l.seq - 1];
        expect(r?.ts).toBe(l.ts);
        expect(l.text).toBe(`line ${l.seq} at ${l.ts}`);
      }
      // Everything older than 1.5 s at the kill is there.
      const mustHave = reports.filter((r) => r.ts <= killedAt - 1500);
      expect(mustHave.length).toBeGreaterThan(50);
      expect(lines.length).toBeGreaterThanOrEqual(mustHave.length);
      const lost = reports.length - lines.length;
      console.log(`[jobstore crash] reported ${reports.length} lines, stored ${lines.length}, lost the last ${lost} (${reports.length ? killedAt - (reports[lines.length]?.ts ?? killedAt) : 0} ms before the kill)`);

      // The store keeps working on the recovered file.
      const tc = store.getTcount(jobId).engine;
      expect(tc.map((s) => s.tpm)).toEqual(tc.map((_, i) => (i + 1) * 10));
      const next = store.appendOutput(jobId, [{ vu: 0, ts: Date.now(), text: 'after restart' }]);
      expect(next.firstSeq).toBe(lines.length + 1);
    } finally {
      store.close();
    }
    const db = new Database(path, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  });
});
