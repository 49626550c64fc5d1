import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const MAIN = join(REPO, 'server/dist/main.js');
const UI = join(REPO, 'ui/dist/index.html');

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.unref();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => ok(port));
    });
  });
}

export interface RunningServer {
  url: string;
  dataDir: string;
  proc: ChildProcess;
  log: () => string;
  stop: () => Promise<void>;
}

/**
 * Start the built server (`node server/dist/main.js`) on a free port with a
 * fresh temporary SLEDGE_DATA_DIR (or the one given). The tests build
 * nothing: run `pnpm --filter @sledge/server build` and
 * `pnpm --filter @sledge/ui build` first.
 */
export async function startServer(opts: { dataDir?: string; keepData?: boolean; env?: Record<string, string> } = {}): Promise<RunningServer> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run pnpm --filter @sledge/server build first`);
  if (!existsSync(UI)) throw new Error(`${UI} is missing: run pnpm --filter @sledge/ui build first`);
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'sledge-e2e-'));
  const port = await freePort();
  let out = '';
  const proc = spawn(process.execPath, [MAIN], {
    cwd: REPO,
    env: { ...process.env, ...(opts.env ?? {}), SLEDGE_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}:\n${out}`);
    try {
      const r = await fetch(`${url}/api/v1/health`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`server did not answer on ${url} within 120 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = async () => {
    if (proc.exitCode === null) {
      const exited = new Promise<void>((r) => proc.once('exit', () => r()));
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(t);
    }
    if (!opts.keepData && !opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  return { url, dataDir, proc, log: () => out, stop };
}
