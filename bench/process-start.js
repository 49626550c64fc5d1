/**
 * pnpm bench process-start [--rounds N] [--against DIR]
 *
 * What a new process pays before it does anything: the server process, every `sledge --local`
 * command, every replica and every test's spawned server load the app afresh. Each measurement is
 * a new node process that reports its own CPU (user + sys, process.cpuUsage at exit, so startup
 * and all) and wall time:
 * - import the app: `await import(...)` of what the server and `sledge --local` load
 *   (server/dist/app.bundle.js, scripts/bundle-process.mjs; server/dist/app.js in a checkout
 *   built before the bundles), nothing else;
 * - a CLI command: `sledge jobs --local --data-dir <empty dir> --json` (parse, open the store,
 *   load the app in-process, answer, exit);
 * - `sledge --help` (the CLI alone: no app);
 * - the server: `node server/dist/main.js` (PORT=0, SLEDGE_AGENT=off) until its "listening"
 *   log line, then SIGTERM (its shutdown closes the app and exits);
 * - a replica, when nats-server is on the PATH (the bench starts one on a free loopback port):
 *   `sledge replica --nats ...` until its "joined" line, 300 ms more (it sets its signal handlers
 *   after that line), then SIGTERM (it leaves and exits). It loads every driver to announce which
 *   work here, so this row is mostly not module loading.
 * With --against DIR (another built checkout, e.g. a worktree of an older commit), the same in
 * DIR too, alternating which checkout goes first each round, and the ratio of the medians.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from './startup.js';

export async function benchProcessStart({ ROOT, quick, args, table, fmt, log }) {
  const i = args.indexOf('--rounds');
  const rounds = Math.max(1, Number(i >= 0 ? args[i + 1] : quick ? 3 : 9));
  const a = args.indexOf('--against');
  const roots = [['this checkout', ROOT], ...(a >= 0 ? [['--against', resolve(args[a + 1])]] : [])];
  const tmp = mkdtempSync(join(tmpdir(), 'sledge-bench-start-'));
  // Prints the process's own CPU and wall time at exit, on stderr's last line.
  const report = join(tmp, 'report.mjs');
  writeFileSync(report, "process.on('exit', () => { const c = process.cpuUsage(); process.stderr.write('\\nBENCH ' + JSON.stringify({ cpuMs: (c.user + c.system) / 1000, wallMs: performance.now() }) + '\\n'); });\n");
  const app = (root) => join(root, existsSync(join(root, 'server/dist/app.bundle.js')) ? 'server/dist/app.bundle.js' : 'server/dist/app.js');
  const imp = ['--import', pathToFileURL(report).href];
  // A replica needs NATS: a nats-server of the bench's own, on a port that was free a moment ago.
  let nats = null;
  if (spawnSync('nats-server', ['--version']).status === 0) {
    const port = await new Promise((res) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = s.address().port;
        s.close(() => res(p));
      });
    });
    nats = { url: `nats://127.0.0.1:${port}`, p: spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', join(tmp, 'nats')], { stdio: 'ignore' }) };
    await new Promise((r) => setTimeout(r, 500));
  }
  let replicas = 0;
  const kinds = {
    'import the app': (root) => ({ argv: [...imp, '--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(app(root)).href)})`] }),
    'sledge jobs --local --json': (root) => ({ argv: [...imp, join(root, 'apps/cli/dist/main.js'), 'jobs', '--local', '--data-dir', join(tmp, 'data'), '--json'] }),
    'sledge --help': (root) => ({ argv: [...imp, join(root, 'apps/cli/dist/main.js'), '--help'] }),
    'server start to listening': (root) => ({
      argv: [...imp, join(root, 'server/dist/main.js')],
      env: { PORT: '0', HOST: '127.0.0.1', SLEDGE_DATA_DIR: join(tmp, 'server-data'), SLEDGE_AGENT: 'off', LOG_FORMAT: 'json', LOG_LEVEL: 'info' },
      until: /Sledge listening on /,
    }),
    ...(nats
      ? {
          'sledge replica to joined': (root) => ({
            argv: [...imp, join(root, 'apps/cli/dist/main.js'), 'replica', '--nats', nats.url, '--name', `bench-${++replicas}`],
            until: / joined /,
            afterMs: 300,
          }),
        }
      : {}),
  };
  /** One process: its BENCH line, after it exits (sent SIGTERM afterMs after `until` shows on stdout or stderr). */
  const one = (kind, root) =>
    new Promise((resolvePromise, reject) => {
      const { argv, env, until, afterMs = 0 } = kinds[kind](root);
      const p = spawn(process.execPath, argv, { cwd: tmp, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      let sent = false;
      const check = () => {
        if (!until || sent || !until.test(out + err)) return;
        sent = true;
        setTimeout(() => p.kill('SIGTERM'), afterMs);
      };
      p.stdout.on('data', (d) => {
        out += d;
        check();
      });
      p.stderr.on('data', (d) => {
        err += d;
        check();
      });
      p.on('error', reject);
      p.on('close', (code) => {
        const line = err.split('\n').reverse().find((l) => l.startsWith('BENCH '));
        if (code !== 0 || !line) reject(new Error(`${kind} in ${root} failed (exit ${code}): ${err.slice(-500)}`));
        else resolvePromise(JSON.parse(line.slice(6)));
      });
    });
  log(`== process-start: a new node process loading the app, 'sledge jobs --local', 'sledge --help', the server to listening${nats ? ' and a replica to joined' : ''} (${rounds} rounds${roots.length > 1 ? `, alternating ${roots.map((r) => r[1]).join(' / ')}` : ''})`);
  const got = {};
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? roots : [...roots].reverse();
    for (const kind of Object.keys(kinds)) {
      for (const [name, root] of order) ((got[kind] ??= {})[name] ??= []).push(await one(kind, root));
    }
  }
  nats?.p.kill('SIGTERM');
  rmSync(tmp, { recursive: true, force: true });
  const span = (xs) => `${fmt(Math.min(...xs), 0)}-${fmt(Math.max(...xs), 0)}`;
  const rows = [];
  for (const [kind, by] of Object.entries(got)) {
    for (const [name, root] of roots) {
      const cpu = by[name].map((x) => x.cpuMs);
      const wall = by[name].map((x) => x.wallMs);
      rows.push([kind, `${name} (${root})`, fmt(median(cpu), 0), span(cpu), fmt(median(wall), 0)]);
    }
    if (roots.length > 1) rows.push([kind, 'this / --against (CPU, medians)', fmt(median(by[roots[0][0]].map((x) => x.cpuMs)) / median(by[roots[1][0]].map((x) => x.cpuMs)), 2) + 'x', '', '']);
  }
  console.log('\nProcess start, CPU ms (median of the rounds, min-max) and wall ms (median)\n' + table(['what', 'checkout', 'CPU ms', 'min-max', 'wall ms'], rows));
  return { rounds, results: got };
}
