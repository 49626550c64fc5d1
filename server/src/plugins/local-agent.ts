import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
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
  const args = [AGENT, '--server', url.replace(/^http/, 'ws'), '--label', `${os.hostname()} (local)`];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...(token ? { SLEDGE_TOKEN: token } : {}) },
  });
  child.stderr?.on('data', (d: Buffer) => log(`agent: ${String(d).trim()}`));
  child.on('exit', (code) => {
    if (code) log(`local CPU agent exited with ${code}`);
  });
  return child;
}
