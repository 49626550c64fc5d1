/**
 * pnpm bench chbench [--vus N] [--warehouses N] [--rampup MIN] [--duration MIN] [--rounds N] [--quick]
 *
 * CH-benCHmark's interference figure, measured side by side in one run on PostgreSQL:
 * one schema of 4 warehouses (built once, kept as sledge_bench_chbench), then timed runs of the
 * same TPROC-C VUs with 0, 1 and 2 analytic streams, interleaved (round r runs 0,1,2 or 2,1,0
 * alternately, so drift over the session falls on every setting alike). Per setting: NOPM of
 * each round, mean, spread (min-max), the ratio to 0 streams, and the analytic queries per hour.
 */
const DB = 'sledge_bench_chbench';

export async function benchChbench({ quick, args, withApp, submit, table, fmt, log, results }) {
  const opt = (name, def) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? Number(args[i + 1]) : def;
  };
  const vus = opt('vus', 4);
  const warehouses = opt('warehouses', 4);
  const rampup = opt('rampup', quick ? 0.05 : 0.5);
  const duration = opt('duration', quick ? 0.25 : 2);
  const rounds = opt('rounds', quick ? 1 : 2);
  const settings = [0, 1, 2];
  const target = { engine: 'postgresql', host: '127.0.0.1', port: 5432, user: DB, password: 'bench', database: DB, superuser: 'postgres', superuserPassword: 'postgres' };
  log(`== chbench: PostgreSQL, ${warehouses} warehouses, ${vus} VUs, rampup ${rampup} min, ${duration} min measured, 0/1/2 analytic streams x ${rounds} round(s), interleaved`);
  const runs = [];
  await withApp(async (s) => {
    const state = JSON.parse((await s.app.inject({ method: 'POST', url: '/api/v1/targets/test', payload: { target } })).body);
    const held = state.schema?.exists && state.schema?.warehouses === warehouses;
    if (!held) {
      if (state.schema?.exists) await submit(s, { type: 'delete', workload: 'chbench', target });
      const t0 = Date.now();
      await submit(s, { type: 'build', workload: 'chbench', target, tprocc: { warehouses, buildVus: 2 } });
      log(`built ${warehouses} warehouses + CH-benCHmark tables in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
    for (let r = 1; r <= rounds; r++) {
      const order = r % 2 === 1 ? settings : [...settings].reverse();
      for (const streams of order) {
        const j = await submit(s, { type: 'run', workload: 'chbench', target, tprocc: { vus, rampup, duration }, chbench: { analyticStreams: streams } });
        const a = j.result.analytic;
        runs.push({ round: r, streams, nopm: j.result.nopm, tpm: j.result.tpm, qph: a.queriesPerHour, completed: a.completedQueries, geomean: a.geomean, job: j.id });
        log(`round ${r}, ${streams} stream(s): NOPM ${j.result.nopm}, ${a.completedQueries} analytic queries (${a.queriesPerHour}/h)`);
      }
    }
  });
  const base = runs.filter((x) => x.streams === 0).map((x) => x.nopm);
  const baseMean = base.reduce((a, b) => a + b, 0) / base.length;
  const rows = settings.map((n) => {
    const xs = runs.filter((x) => x.streams === n);
    const nopm = xs.map((x) => x.nopm);
    const mean = nopm.reduce((a, b) => a + b, 0) / nopm.length;
    const qph = xs.reduce((a, x) => a + x.qph, 0) / xs.length;
    return [n, nopm.join(' / '), fmt(mean, 0), `${Math.min(...nopm)}-${Math.max(...nopm)}`, fmt(mean / baseMean, 3), fmt(qph, 0)];
  });
  console.log('\nCH-benCHmark on PostgreSQL: NOPM with 0, 1, 2 analytic streams (interleaved rounds)');
  console.log(table(['streams', 'NOPM per round', 'mean', 'spread', 'vs 0 streams', 'analytic q/h'], rows));
  results.sections.chbench = { vus, warehouses, rampup, duration, rounds, runs };
}
