import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

const main = new URL('../dist/main.js', import.meta.url).pathname;

/**
 * The built CLI as a child process (without blocking the test worker: vitest
 * needs its event loop), with its own data directory for `--local`, and a
 * server URL nothing listens on so that a forgotten --local fails fast.
 */
export function cliProcess(name: string, opts: { cwd?: string } = {}): { sledge: (...args: string[]) => Promise<CliResult>; local: string[]; dataDir: string } {
  const dataDir = mkdtempSync(join(tmpdir(), `sledge-cli-${name}-`));
  const sledge = (...args: string[]): Promise<CliResult> =>
    new Promise((resolve) => {
      const p = spawn(process.execPath, [main, ...args], { ...(opts.cwd ? { cwd: opts.cwd } : {}), env: { ...process.env, SLEDGE_SERVER: 'http://127.0.0.1:1' } });
      let out = '';
      let err = '';
      p.stdout.on('data', (d: Buffer) => (out += d));
      p.stderr.on('data', (d: Buffer) => (err += d));
      p.on('close', (code) => resolve({ code, out, err }));
    });
  return { sledge, local: ['--local', '--data-dir', dataDir], dataDir };
}
