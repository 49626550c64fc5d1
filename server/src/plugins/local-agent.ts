import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import { fileURLToPath } from 'node:url';

const AGENT = fileURLToPath(new URL('../../../apps/agent/dist/main.js', import.meta.url));

/**
 * Start a CPU agent for this host beside the server (HammerDB's metstart
 * starts a local agent too). It connects back over /api/v1/agent like any
 * remote agent; the server stops it on close.
 */
export function startLocalAgent(url: string, token: string | undefined, log: (m: string) => void): ChildProcess | null {
  if (!existsSync(AGENT)) {
    log(`local CPU agent not started: ${AGENT} is not built`);
    return null;
  }
  // --with-parent: the agent exits when its stdin (our end of the pipe) closes, so it never outlives this process.
  const args = [AGENT, '--server', url.replace(/^http/, 'ws'), '--label', `${os.hostname()} (local)`, '--with-parent'];
  const child = spawn(process.execPath, args, {
    stdio: ['pipe', 'ignore', 'pipe'],
    env: { ...process.env, ...(token ? { SLEDGE_TOKEN: token } : {}) },
  });
  child.stderr?.on('data', (d: Buffer) => log(`agent: ${String(d).trim()}`));
  // Not what keeps this process alive: when it ends, the pipe closes and the agent ends too.
  child.unref();
  for (const s of [child.stdin, child.stderr]) (s as unknown as { unref?: () => void } | null)?.unref?.();
  child.on('exit', (code) => {
    if (code) log(`local CPU agent exited with ${code}`);
  });
  return child;
}

/**
 * The server's one local agent: started on the first call once the server
 * listens (main.ts at start, metstart when none is connected), stopped when
 * the server closes. Returns false when it is running already or cannot start.
 */
export function localAgentStarter(app: FastifyInstance, token: string | undefined): () => boolean {
  let agent: ChildProcess | null = null;
  app.addHook('onClose', async () => {
    agent?.kill('SIGTERM');
  });
  return () => {
    const address = app.server.address();
    if (agent || !address || typeof address === 'string') return false;
    // A wildcard listener is reached on loopback.
    const ip = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
    agent = startLocalAgent(`http://${ip.includes(':') ? `[${ip}]` : ip}:${address.port}`, token, (m) => app.log.info(m));
    agent?.on('exit', () => (agent = null));
    return agent !== null;
  };
}
