/**
 * pnpm bench tproch [--sf N] [--quick]
 *
 * TPROC-H, measured side by side in one run:
 * - generator: native vs TypeScript rows/s per table (worker-native/bench/tproch-datagen.mjs)
 * - build:     PostgreSQL build of SF N (default 1; --quick 0.1) with 2 build VUs through the REST API,
 *              vs PostgreSQL's own COPY of the same rows from pre-generated files in 2 psql sessions,
 *              then the same keys + statistics (packages/sql/postgresql/tproch/keys.sql, statistics.sql)
 * - power:     a power run on the built schema: per-query seconds, rows, the DOP used, geomean, Power@Size
 *
 * pnpm bench tproch --engines duckdb,sqlite,postgresql [--sf N] [--lock FILE] [--db-prefix P]
 *
 * Engines side by side instead (bench/tproch.js benchTprochEngines): per engine, in the order named, a
 * build of SF N (2 build VUs) and a power run (DOP 2, refresh on, no EXPLAIN), then the schema is
 * deleted: build wall, power-run geomean, Power@Size and elapsed, one row per engine. `--lock FILE`
 * holds FILE with flock(1) during each server engine's part (a machine shared with other live tests).
 * `--db-prefix P` (default sledge_bench) names the PostgreSQL database and user `P_tpch`, so a bench
 * run beside tests or another bench on the same server keeps to its own database.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PSQL = ['-X', '-q', '-h', '127.0.0.1', '-U', 'postgres', '-v', 'ON_ERROR_STOP=1'];
const psqlIn = (db, input) => execFileSync('psql', [...PSQL, '-d', db], { input, stdio: ['pipe', 'ignore', 'inherit'] });
const psqlC = (db, sql) => execFileSync('psql', [...PSQL, '-d', db, '-c', sql], { stdio: ['ignore', 'ignore', 'inherit'] });

/** Named-statement files run as a script: the `-- name:` markers dropped, each statement ended. */
const script = (text) =>
  text
    .split(/^-- name:.*$/m)
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => (s.endsWith(';') ? s : s + ';'))
    .join('\n');

/** Write every table of SF `sf` as COPY text files (one per table), as the build's workers generate them. */
async function writeFiles(ROOT, sf, dir) {
  const { createTprochGenerator } = await import(join(ROOT, 'worker-native/dist/index.js'));
  const { tprochBaseRows } = await import(join(ROOT, 'packages/core/dist/index.js'));
  const gen = await createTprochGenerator(sf, 'pg-text', 'auto');
  const fds = new Map();
  const write = (u) => {
    for (const t of gen.generate(u)) {
      if (!fds.has(t.table)) fds.set(t.table, openSync(join(dir, `${t.table}.tsv`), 'w'));
      writeSync(fds.get(t.table), typeof t.data === 'string' ? t.data : Buffer.from(t.data));
    }
  };
  write({ kind: 'region' });
  const base = tprochBaseRows(sf);
  const CHUNK = 20000;
  for (const kind of ['supplier', 'customer', 'part', 'orders'])
    for (let from = 1; from <= base[kind]; from += CHUNK) write({ kind, from, to: Math.min(base[kind], from + CHUNK - 1) });
  for (const fd of fds.values()) closeSync(fd);
  return gen.kind;
}

/** psql \copy of the files into empty tables in 2 sessions (like 2 build VUs), big tables split between them. */
async function copyIn(ROOT, db, dir) {
  const { TPROCH_COLUMNS } = await import(join(ROOT, 'packages/core/dist/index.js'));
  const lanes = [['lineitem', 'customer', 'supplier', 'region'], ['orders', 'partsupp', 'part', 'nation']];
  await Promise.all(
    lanes.map(
      (lane) =>
        new Promise((res, rej) => {
          const cmds = lane.map((t) => `\\copy ${t} (${TPROCH_COLUMNS[t].join(',')}) from '${join(dir, t + '.tsv')}'`).join('\n');
          const p = spawn('psql', [...PSQL, '-d', db], { stdio: ['pipe', 'ignore', 'inherit'] });
          p.on('exit', (c) => (c ? rej(new Error('psql copy failed')) : res()));
          p.stdin.end('BEGIN;\n' + cmds + '\nCOMMIT;\n');
        }),
    ),
  );
}

/** The value of `--name v` or `--name=v`. */
const argValue = (args, name) => args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1) ?? (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);

/** Bench targets per engine (files relative to the bench app's temporary data directory). */
const ENGINE_TARGETS = {
  duckdb: { engine: 'duckdb', file: 'bench-tproch.duckdb' },
  sqlite: { engine: 'sqlite', file: 'bench-tproch.sqlite' },
  postgresql: { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'sledge_bench_tpch', password: 'sledge_bench_tpch', database: 'sledge_bench_tpch', superuser: 'postgres' },
};

/** The engine's bench target; a server engine's database and user are `<prefix>_tpch` (--db-prefix, default sledge_bench). */
function engineTarget(engine, prefix) {
  const target = ENGINE_TARGETS[engine];
  if (target.file || !prefix) return target;
  if (!/^[a-z_][a-z0-9_]{0,50}$/.test(prefix)) throw new Error(`--db-prefix: ${JSON.stringify(prefix)} is not a plain lower-case identifier (letters, digits, _; at most 51 characters)`);
  const name = `${prefix}_tpch`;
  return { ...target, user: name, password: name, database: name };
}

/** Hold `file` with flock(1) (a child that keeps it until released); resolves once held. */
function holdLock(file) {
  return new Promise((res, rej) => {
    const p = spawn('flock', [file, '-c', 'echo held; read _'], { stdio: ['pipe', 'pipe', 'inherit'] });
    p.on('error', rej);
    p.on('exit', (c) => rej(new Error(`flock ${file} exited with ${c}`)));
    p.stdout.once('data', () => {
      p.removeAllListeners('exit');
      res(() => p.stdin.end('\n'));
    });
  });
}

/** Per engine: build SF `sf` and a power run on it, one table row each. */
async function benchTprochEngines(b, sf, engines) {
  const { withApp, submit, output, table, fmt, log, results } = b;
  const unknown = engines.filter((e) => !ENGINE_TARGETS[e]);
  if (unknown.length) throw new Error(`--engines: unknown engine(s) ${unknown.join(', ')}; use any of ${Object.keys(ENGINE_TARGETS).join(', ')}`);
  const rows = [];
  await withApp(async (s) => {
    for (const engine of engines) {
      const target = engineTarget(engine, argValue(b.args, '--db-prefix'));
      const lockFile = argValue(b.args, '--lock');
      const release = lockFile && !target.file ? await holdLock(lockFile) : () => undefined;
      try {
        await submit(s, { type: 'delete', workload: 'tproch', target, tproch: { scaleFactor: sf } }).catch(() => undefined);
        log(`== tproch ${engine}: build SF ${sf}, 2 build VUs`);
        const t0 = performance.now();
        const job = await submit(s, { type: 'build', workload: 'tproch', target, tproch: { scaleFactor: sf, buildVus: 2 }, metrics: { ash: false, cpu: false } });
        const buildS = (performance.now() - t0) / 1000;
        const ph = (await output(s, job.id)).find((t) => t.startsWith('Build phases:')) ?? '';
        log(`== tproch ${engine}: power run SF ${sf}, DOP 2`);
        const run = await submit(s, { type: 'run', workload: 'tproch', target, tproch: { scaleFactor: sf, mode: 'power', dop: 2, explain: false }, metrics: { ash: false, cpu: false } });
        const r = run.result;
        rows.push({ engine, buildS, phases: ph.replace(/^Build phases:\s*/, ''), geomean: r.geomean, powerAtSize: r.powerAtSize, elapsedSeconds: r.elapsedSeconds, errors: r.errors, queries: r.queries.map((q) => ({ query: q.query, seconds: q.seconds, rows: q.rows })) });
        // Each engine's figures as soon as it is done (the table comes at the end; a long run shows its parts meanwhile).
        log(`== tproch ${engine}: build wall ${fmt(buildS)} s (${ph.replace(/^Build phases:\s*/, '') || '-'}); power geomean ${fmt(r.geomean, 5)} s, Power@Size ${fmt(r.powerAtSize)}, elapsed ${fmt(r.elapsedSeconds)} s, ${r.errors} query errors; per query s: ${r.queries.map((q) => `Q${q.query} ${fmt(q.seconds, 3)}`).join(', ')}`);
        await submit(s, { type: 'delete', workload: 'tproch', target, tproch: { scaleFactor: sf } });
      } finally {
        release();
      }
    }
  });
  const base = rows[0];
  console.log(
    `\nTPROC-H SF ${sf} per engine, one run: build (2 build VUs, wall incl. keys and statistics) and a power run (DOP 2, refresh on, Appendix A row 0 order)\n` +
      table(
        ['engine', 'build wall s', 'build phases', 'power geomean s', 'Power@Size', 'power elapsed s', 'query errors', `geomean / ${base.engine}`],
        rows.map((x) => [x.engine, fmt(x.buildS), x.phases || '-', fmt(x.geomean, 5), fmt(x.powerAtSize), fmt(x.elapsedSeconds), x.errors, `${fmt(x.geomean / base.geomean, 2)}x`]),
      ) +
      `\nper query seconds\n` +
      table(['query', ...rows.map((x) => x.engine)], Array.from({ length: 22 }, (_, i) => [`Q${i + 1}`, ...rows.map((x) => fmt(x.queries.find((q) => q.query === i + 1)?.seconds, 3))])),
  );
  results.sections.tproch = { scaleFactor: sf, engines: rows };
}

export async function benchTproch(b) {
  const { ROOT, quick, args, withApp, submit, output, table, fmt, log, treeCpuSeconds, pidOf, results } = b;
  const sfArg = argValue(args, '--sf');
  const sf = Number(sfArg ?? (quick ? 0.1 : 1));
  const engines = argValue(args, '--engines');
  if (engines) return benchTprochEngines(b, sf, engines.split(',').map((e) => e.trim()).filter(Boolean));
  const out = {};

  log('== tproch generator: native vs TypeScript rows/s per table (one thread, generation only)');
  const gen = JSON.parse(execFileSync(process.execPath, [join(ROOT, 'worker-native/bench/tproch-datagen.mjs'), '--json', ...(quick ? ['--seconds', '0.5'] : [])], { cwd: join(ROOT, 'worker-native') }).toString());
  out.generator = gen;
  console.log(
    `\nTPROC-H row generation at SF ${gen.sf}, one thread, rows per CPU second, best of 3 alternating rounds (worker-native/bench/tproch-datagen.mjs)\n` +
      table(['table', 'native rows/s', 'TypeScript rows/s', 'native / TS'], gen.results.map((t) => [t.table, t.nativeRowsPerSec, t.typescriptRowsPerSec, `${fmt(t.ratio, 2)}x`])) +
      `\ntext pool (300 MiB) build: native ${gen.pool.nativeMs} ms, TypeScript ${gen.pool.typescriptMs} ms`,
  );

  const db = 'sledge_bench_tpch';
  const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: 'sledge_bench_tpch', password: 'sledge_bench_tpch', database: db, superuser: 'postgres' };
  const pgPid = pidOf('postgres');
  await withApp(async (s) => {
    log(`== tproch build: PostgreSQL SF ${sf}, 2 build VUs`);
    await submit(s, { type: 'delete', workload: 'tproch', target, tproch: { scaleFactor: sf } }).catch(() => undefined);
    const srv0 = pgPid ? treeCpuSeconds(pgPid) : null;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const job = await submit(s, { type: 'build', workload: 'tproch', target, tproch: { scaleFactor: sf, buildVus: 2 }, metrics: { ash: false, cpu: false } });
    const wallS = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const lines = await output(s, job.id);
    const ph = lines.find((t) => t.startsWith('Build phases:')) ?? '';
    const build = {
      wallS,
      clientCpuS: (cpu.user + cpu.system) / 1e6,
      serverCpuS: pgPid ? treeCpuSeconds(pgPid) - srv0 : null,
      loadS: Number(ph.match(/load ([\d.]+) s/)?.[1]),
      keysS: Number(ph.match(/(?:keys|statistics)[^\d]*([\d.]+) s/)?.[1]),
      generator: (lines.find((t) => t.startsWith('Build of')) ?? '').match(/generator (\S+)/)?.[1] ?? '?',
    };

    log(`== tproch COPY: the same SF ${sf} rows from pre-generated files, 2 psql sessions`);
    const dir = mkdtempSync(join(tmpdir(), 'sledge-bench-tpch-'));
    const copyDb = 'sledge_bench_tpch_copy';
    let copy;
    try {
      const fileGen = await writeFiles(ROOT, sf, dir);
      const { sqlText } = await import(join(ROOT, 'packages/sql/dist/index.js'));
      psqlC('postgres', `drop database if exists ${copyDb}`);
      psqlC('postgres', `create database ${copyDb}`);
      psqlIn(copyDb, script(sqlText('postgresql', 'tproch', 'tables.sql')));
      const srv1 = pgPid ? treeCpuSeconds(pgPid) : null;
      const t1 = performance.now();
      await copyIn(ROOT, copyDb, dir);
      const copyS = (performance.now() - t1) / 1000;
      const t2 = performance.now();
      psqlIn(copyDb, script(sqlText('postgresql', 'tproch', 'keys.sql')) + '\n' + script(sqlText('postgresql', 'tproch', 'statistics.sql')));
      const keysS = (performance.now() - t2) / 1000;
      copy = { copyS, keysS, wallS: copyS + keysS, serverCpuS: pgPid ? treeCpuSeconds(pgPid) - srv1 : null, fileGenerator: fileGen };
    } finally {
      rmSync(dir, { recursive: true, force: true });
      psqlC('postgres', `drop database if exists ${copyDb}`);
    }
    out.build = build;
    out.copy = copy;
    console.log(
      `\nPostgreSQL TPROC-H build of SF ${sf} vs PostgreSQL's own COPY of the same rows from files (2 psql sessions), then the same keys + statistics\n` +
        table(
          ['', 'data load s', 'keys + statistics s', 'total wall s', 'client CPU s', 'PostgreSQL CPU s', 'total / (COPY + keys)'],
          [
            [`Sledge build, 2 VUs (generator ${build.generator})`, fmt(build.loadS), fmt(build.keysS), fmt(build.wallS), fmt(build.clientCpuS), fmt(build.serverCpuS), `${fmt(build.wallS / copy.wallS, 2)}x`],
            ['psql \\copy of pre-generated files, then keys.sql + statistics.sql', fmt(copy.copyS), fmt(copy.keysS), fmt(copy.wallS), '-', fmt(copy.serverCpuS), '1.00x'],
          ],
        ),
    );

    log(`== tproch power run: PostgreSQL SF ${sf}`);
    const run = await submit(s, { type: 'run', workload: 'tproch', target, tproch: { scaleFactor: sf, mode: 'power', dop: 2, explain: false }, metrics: { ash: false, cpu: false } });
    const r = run.result;
    out.power = { dop: r.dop, geomean: r.geomean, powerAtSize: r.powerAtSize, elapsedSeconds: r.elapsedSeconds, queries: r.queries.map((q) => ({ query: q.query, seconds: q.seconds, rows: q.rows })) };
    console.log(`\nPower run, PostgreSQL SF ${sf}, DOP ${r.dop} (max_parallel_workers_per_gather), Appendix A row 0 order\n` + table(['position', 'query', 'seconds', 'rows'], r.queries.map((q) => [q.position, `Q${q.query}`, fmt(q.seconds, 3), q.rows])));
    console.log(`${r.line}; Power@Size ${fmt(r.powerAtSize)} (Sledge, not audited${r.metricsNote ? `: ${r.metricsNote}` : ''}); elapsed ${fmt(r.elapsedSeconds)} s`);
    await submit(s, { type: 'delete', workload: 'tproch', target, tproch: { scaleFactor: sf } });
  });
  results.sections.tproch = { scaleFactor: sf, ...out };
}
