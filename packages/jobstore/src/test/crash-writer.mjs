// Crash-test child: opens the built store, starts a measuring job and appends
// one output line every 10 ms, reporting "<seq> <ts>" for each on stdout
// (pipes are synchronous on Linux, so every report precedes the next append).
// The parent kills it with SIGKILL.
import { JobStore } from '../../dist/index.js';

const path = process.argv[2];
if (!path) {
  process.stderr.write('usage: crash-writer.mjs <db path>\n');
  process.exit(2);
}
const store = JobStore.open(path);
const job = store.createJob({
  type: 'run',
  workload: 'tprocc',
  engine: 'sqlite',
  config: { target: { engine: 'sqlite', file: 'x.sqlite' } },
  seed: 1,
  profileId: 0,
  clientVersion: 'crash-test',
});
store.updateJob(job.id, { status: 'connecting', startedAt: new Date().toISOString() });
store.updateJob(job.id, { status: 'measuring' });
process.stdout.write(`READY ${job.id}\n`);
let n = 0;
setInterval(() => {
  n++;
  const ts = Date.now();
  const { firstSeq } = store.appendOutput(job.id, [{ vu: (n % 4) + 1, ts, text: `line ${n} at ${ts}` }]);
  if (n % 10 === 0) store.appendEngineSamples(job.id, [{ ts, tpm: n, nopm: n / 2 }]);
  process.stdout.write(`${firstSeq} ${ts}\n`);
}, 10);
