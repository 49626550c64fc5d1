import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, freePort } from './server.js';

/**
 * Scale-out for the browser tests: a nats-server of the test's own (free
 * port, token, its own JetStream directory; never the system NATS on 4222)
 * and `sledge replica` processes of the built CLI joining it.
 */

const CLI = join(REPO, 'apps/cli/dist/main.js');

async function waitFor(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const exitOf = (p: ChildProcess) => new Promise<void>((r) => (p.exitCode !== null || p.signalCode !== null ? r() : p.once('exit', () => r())));

export interface RunningNats {
  url: string;
  log: () => string;
  stop: () => Promise<void>;
  /** A crash: SIGKILL (stop still removes the store directory). */
  kill: () => Promise<void>;
}

/** nats-server with JetStream on 127.0.0.1:<free port>, token authentication (none when token is null), and a temporary store directory (removed by stop). */
export async function startNats(token: string | null): Promise<RunningNats> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'sledge-e2e-nats-'));
  const p = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir, ...(token ? ['--auth', token] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  p.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  p.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  let spawnError: Error | undefined;
  p.once('error', (e) => (spawnError = e));
  await waitFor(() => {
    if (spawnError) throw new Error(`nats-server does not start (${spawnError.message}): install it (Debian: apt-get install nats-server)`);
    if (p.exitCode !== null) throw new Error(`nats-server exited with ${p.exitCode}:\n${out}`);
    return /Server is ready/.test(out);
  }, 'nats-server');
  return {
    url: `nats://127.0.0.1:${port}`,
    log: () => out,
    stop: async () => {
      if (p.exitCode === null && p.signalCode === null) p.kill('SIGTERM');
      await exitOf(p);
      rmSync(dir, { recursive: true, force: true });
    },
    kill: async () => {
      p.kill('SIGKILL');
      await exitOf(p);
    },
  };
}

export interface RunningReplica {
  name: string;
  proc: ChildProcess;
  log: () => string;
  stop: () => Promise<void>;
}

/** `node apps/cli/dist/main.js replica --nats URL --name NAME`, the token (when given) in SLEDGE_NATS_TOKEN, not on the command line. */
export function startReplica(name: string, url: string, token: string | null): RunningReplica {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run pnpm --filter @sledge/cli build first`);
  const proc = spawn(process.execPath, [CLI, 'replica', '--nats', url, '--name', name], { cwd: REPO, env: { ...process.env, ...(token ? { SLEDGE_NATS_TOKEN: token } : {}) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return {
    name,
    proc,
    log: () => out,
    stop: async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = exitOf(proc);
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(t);
    },
  };
}
