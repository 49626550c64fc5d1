/**
 * pnpm bench process-start [--rounds N] [--against DIR]
 *
 * What a new process pays before it does anything: the server process, every `sledge --local`
 * command and every test file load the app (server/dist/app.js) afresh. Two measurements, each a
 * new node process that reports its own CPU (user + sys, process.cpuUsage at exit, so startup and
 * all) and wall time:
 * - import the app: `await import('server/dist/app.js')`, nothing else;
 * - a CLI command: `sledge jobs --local --data-dir <empty dir> --json` (parse, open the store,
 *   load the app in-process, answer, exit).
 * With --against DIR (another built checkout, e.g. a worktree of an older commit), the same two in
 * DIR too, alternating which checkout goes first each round, and the ratio of the medians.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  const kinds = {
    'import the app': (root) => ['--import', pathToFileURL(report).href, '--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(join(root, 'server/dist/app.js')).href)})`],
    'sledge jobs --local --json': (root) => ['--import', pathToFileURL(report).href, join(root, 'apps/cli/dist/main.js'), 'jobs', '--local', '--data-dir', join(tmp, 'data'), '--json'],
  };
  log(`== process-start: a new node process loading the app, and a 'sledge jobs --local' command (${rounds} rounds${roots.length > 1 ? `, alternating ${roots.map((r) => r[1]).join(' / ')}` : ''})`);
  const got = {};
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? roots : [...roots].reverse();
    for (const [kind, argv] of Object.entries(kinds)) {
      for (const [name, root] of order) {
        const p = spawnSync(process.execPath, argv(root), { cwd: tmp, encoding: 'utf8' });
        const line = (p.stderr ?? '').split('\n').reverse().find((l) => l.startsWith('BENCH '));
        if (p.status !== 0 || !line) throw new Error(`${kind} in ${root} failed (exit ${p.status}): ${(p.stderr ?? '').slice(-500)}`);
        ((got[kind] ??= {})[name] ??= []).push(JSON.parse(line.slice(6)));
      }
    }
  }
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
