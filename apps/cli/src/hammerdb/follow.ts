import type { Job, ServerFrame } from '@sledge/protocol';
import type { SledgeClient } from '../client.js';

/** HammerDB's names of the databases (its dbdict), as its transaction counter prints them. */
const DATABASE_NAMES: Record<string, string> = { oracle: 'Oracle', mssql: 'MSSQLServer', db2: 'Db2', mysql: 'MySQL', postgresql: 'PostgreSQL', mariadb: 'MariaDB', sqlite: 'SQLite', duckdb: 'DuckDB' };

/**
 * Wait for a job as HammerDB's CLI waits for its virtual users, printing
 * their output as it prints it: `Vuser N:<line>` for a VU's lines and the
 * status stream (VU 0) as is: `Vuser 1:RUNNING`, `Vuser 1:FINISHED SUCCESS`,
 * `ALL VIRTUAL USERS COMPLETE` (builds write their workers' `Vuser N:RUNNING`,
 * `Vuser N:FINISHED SUCCESS` there). Jobs whose status stream lacks Vuser 1's
 * (builds, checks, TPROC-H runs) get them from the job's status, as HammerDB's
 * job viewer shows them. Ctrl-C stops the job (a second one leaves it running).
 */
export async function followJob(client: SledgeClient, jobId: string, out: (line: string) => void, opts: { counter?: boolean } = {}): Promise<Job> {
  const seen = new Set<number>();
  // HammerDB's transaction counter (tcstart): `<tpm> <database> tpm` every refresh, from the run's engine samples.
  const counted = new Set<number>();
  let database = '';
  let running = false;
  let finished = false;
  let complete = false;
  // Only Vuser 1's (the monitor's) lines: builds write their workers' (Vuser 2..) and not the monitor's.
  const status = (text: string) => {
    if (text === 'Vuser 1:RUNNING') running = true;
    if (/^Vuser 1:FINISHED (SUCCESS|FAILED)$/.test(text)) finished = true;
    if (text === 'ALL VIRTUAL USERS COMPLETE') complete = true;
  };
  // TPROC-C runs write their own status stream (VU 0); other jobs get one here.
  let writesStatus = false;
  const onFrame = (f: ServerFrame) => {
    if (f.t === 'snapshot') {
      writesStatus = f.snapshot.job.type === 'run' && f.snapshot.job.workload !== 'tproch';
      database = DATABASE_NAMES[f.snapshot.job.engine] ?? f.snapshot.job.engine;
    }
    if (opts.counter) {
      const samples = f.t === 'tcount' ? f.engine : f.t === 'snapshot' ? f.snapshot.engine : [];
      for (const s of samples) {
        if (counted.has(s.ts)) continue;
        counted.add(s.ts);
        out(`${Math.round(s.tpm)} ${database} tpm`);
      }
    }
    const lines = f.t === 'output' ? f.lines : f.t === 'snapshot' ? f.snapshot.output : [];
    for (const l of lines) {
      if (seen.has(l.seq)) continue;
      seen.add(l.seq);
      if (l.vu === 0) status(l.text);
      if (!running && !writesStatus && l.text !== 'Vuser 1:RUNNING') {
        out('Vuser 1:RUNNING');
        running = true;
      }
      out(l.vu === 0 ? l.text : `Vuser ${l.vu}:${l.text}`);
    }
  };
  let stopping = false;
  const onSigint = () => {
    if (stopping) process.exit(130);
    stopping = true;
    process.stderr.write(`\nstopping job ${jobId} (Ctrl-C again to leave it running)\n`);
    void client.request('POST', `/jobs/${jobId}/stop`).catch(() => undefined);
  };
  process.on('SIGINT', onSigint);
  try {
    const job = await client.follow(jobId, onFrame);
    if (!running) out('Vuser 1:RUNNING');
    if (job.error && job.status !== 'completed') out(`Error in Virtual User 1: ${job.error.message}`);
    if (!finished) out(job.status === 'completed' ? 'Vuser 1:FINISHED SUCCESS' : 'Vuser 1:FINISHED FAILED');
    if (!complete) out('ALL VIRTUAL USERS COMPLETE');
    return job;
  } finally {
    process.off('SIGINT', onSigint);
  }
}
