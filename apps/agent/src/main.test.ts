import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CpuSample, validate } from '@sledge/protocol';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const run = promisify(execFile);

/** Runs the built entry point (pnpm --filter @sledge/agent build first; CI builds before it tests). */
describe.skipIf(!existsSync(MAIN))('dist/main.js', () => {
  it('--once --json prints one valid sample of this machine', async () => {
    const { stdout } = await run(process.execPath, [MAIN, '--once', '--json', '--interval-ms', '200']);
    const s = validate(CpuSample, JSON.parse(stdout));
    expect(s.cpus).toHaveLength(os.cpus().length + 1);
  });

  it('--once prints the HammerDB-style lines; bad arguments exit 2 with the usage', async () => {
    const { stdout } = await run(process.execPath, [MAIN, '--once', '--interval-ms', '100']);
    expect(stdout).toMatch(/^CPU all usr%-\d+\.\d\d sys%-/);
    expect(stdout).toMatch(/IOPS-\d+ MB\/s-\d+\.\d\d/);
    const err = await run(process.execPath, [MAIN]).then(
      () => null,
      (e: { code?: number; stderr?: string }) => e,
    );
    expect(err?.code).toBe(2);
    expect(err?.stderr).toMatch(/--server is required/);
  });

  it('--with-parent: the agent ends when its standard input closes (the server that started it is gone)', async () => {
    // No server listens on port 9: the agent keeps reconnecting, and would forever without --with-parent.
    const child = spawn(process.execPath, [MAIN, '--server', 'ws://127.0.0.1:9', '--with-parent'], { stdio: ['pipe', 'ignore', 'pipe'] });
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    await new Promise((r) => setTimeout(r, 500));
    expect(child.exitCode, stderr).toBeNull();
    child.stdin.end();
    expect(await exited, stderr).toBe(0);
  });
});
