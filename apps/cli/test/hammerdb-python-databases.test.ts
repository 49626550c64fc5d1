import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { quiet, quietTimeout } from '../../../scripts/test-quiet.mjs';
import { getJob, hammerdb, sharedServer, uiJob, workloadConfig } from './hammerdb-harness.js';

/**
 * HammerDB's Python sample scripts' shape (scripts/python/postgres|maria/tprocc:
 * buildschema, checkschema, run, deleteschema) run by `sledge hammerdb script.py`
 * against PostgreSQL (database hdb_py_pg) and MariaDB (hdb_py_maria), 1 warehouse,
 * a 3-second run; the run's job compared with the one the UI creates. Needs the
 * local PostgreSQL and MariaDB (run under `flock /tmp/sledge-db.lock`).
 */
const server = sharedServer();

interface Engine {
  prefix: string;
  name: string;
  settings: string;
  uiTarget: Record<string, unknown>;
  uiSchema: Record<string, unknown>;
}

const ENGINES: Engine[] = [
  {
    prefix: 'pg',
    name: 'PostgreSQL',
    settings: `dbset('db','pg')
dbset('bm','TPC-C')

diset('connection','pg_host','127.0.0.1')
diset('connection','pg_port','5432')
diset('connection','pg_sslmode','prefer')

diset('tpcc','pg_superuser','postgres')
diset('tpcc','pg_superuserpass','postgres')
diset('tpcc','pg_defaultdbase',' postgres')
diset('tpcc','pg_user','hdb_py')
diset('tpcc','pg_pass','hdb_py_pw')
diset('tpcc','pg_dbase','hdb_py_pg')`,
    uiTarget: { engine: 'postgresql', host: '127.0.0.1', port: 5432, sslmode: 'prefer', superuser: 'postgres', superuserPassword: 'postgres', user: 'hdb_py', password: 'hdb_py_pw', database: 'hdb_py_pg' },
    uiSchema: { tablespace: 'pg_default', storedProcs: false, partition: false },
  },
  {
    prefix: 'maria',
    name: 'MariaDB',
    settings: `dbset('db','maria')
dbset('bm','TPC-C')

diset('connection','maria_host','127.0.0.1')
diset('connection','maria_port','3306')

diset('tpcc','maria_user','root')
diset('tpcc','maria_pass','{}')
diset('tpcc','maria_dbase','hdb_py_maria')`,
    uiTarget: { engine: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'hdb_py_maria' },
    uiSchema: {},
  },
];

const buildScript = (e: Engine) => `#!/bin/tclsh
print("SETTING CONFIGURATION")
${e.settings}
warehouse = 1
diset('tpcc','${e.prefix}_count_ware',warehouse)
diset('tpcc','${e.prefix}_num_vu',1)
if (warehouse >= 200):
    diset('tpcc','${e.prefix}_partition','true')
else:
    diset('tpcc','${e.prefix}_partition','false')

print("DROP ANY EARLIER SCHEMA")
deleteschema()
print("SCHEMA BUILD STARTED")
buildschema()
print("SCHEMA BUILD COMPLETED")
print("CHECK SCHEMA STARTED")
checkschema()
print("CHECK SCHEMA COMPLETED")
exit()
`;

const runScript = (e: Engine) => `#!/bin/tclsh
import os
tmpdir = os.getenv('TMP')

print("SETTING CONFIGURATION")
${e.settings}
diset('tpcc','${e.prefix}_driver','timed')
diset('tpcc','${e.prefix}_total_iterations','10000000')
diset('tpcc','${e.prefix}_rampup','0')
diset('tpcc','${e.prefix}_duration','0.05')
diset('tpcc','${e.prefix}_allwarehouse','true')
diset('tpcc','${e.prefix}_timeprofile','true')

loadscript()
print("TEST STARTED")
vuset('vu','1')
vucreate()
tcstart()
tcstatus()
jobid = tclpy.eval('vurun')
vudestroy()
tcstop()
print("TEST COMPLETE")
file_path = os.path.join(tmpdir , "${e.prefix}_tprocc" )
fd = open(file_path, "w")
fd.write(jobid)
fd.close()
exit()
`;

const deleteScript = (e: Engine) => `print("SETTING CONFIGURATION")
${e.settings}
print("DROP SCHEMA STARTED")
deleteschema()
print("DROP SCHEMA COMPLETED")
exit()
`;

/**
 * PostgreSQL's engine TPM sums pg_stat_database, which loses the counts of a database another
 * suite drops mid-window (TPM 0): its timed run is a quiet(fn, 'db') section. MariaDB's
 * Com_commit + Com_rollback (SHOW GLOBAL STATUS) only grow, so other suites' load cannot take
 * it to 0, and its run needs no quiet section.
 */
const quietOnPostgres =
  (e: { prefix: string }) =>
  <T>(fn: () => Promise<T>): Promise<T> =>
    e.prefix === 'pg' ? quiet(fn, 'db') : fn();

describe.each(ENGINES)('sledge hammerdb script.py on $name', (e) => {
  const tmp = mkdtempSync(join(tmpdir(), `sledge-hdb-py-${e.prefix}-`));

  it('a build script: delete any earlier schema, build 1 warehouse, check it', async () => {
    const r = await hammerdb(buildScript(e), server.flags, false, { name: `${e.prefix}_tprocc_buildschema.py`, tmp });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`SETTING CONFIGURATION\nDatabase set to ${e.name}\nBenchmark set to TPC-C for ${e.name}\n`);
    // hammerdbcli's buildschema: its implicit clearscript, the yes/no question it answers itself (its wording per database:
    // hammerdb-databases.test.ts), its VU, then the VU's lines.
    expect(r.out).toMatch(
      new RegExp(`SCHEMA BUILD STARTED\\nScript cleared\\nBuilding 1 Warehouses\\(s\\) with 1 Virtual User\\nReady to create a 1 Warehouse ${e.name} TPROC-C schema\\n[^\\n]+\\?\\nEnter yes or no: replied yes\\nVuser 1 created - WAIT IDLE\\nVuser 1:RUNNING\\n`),
    );
    expect(r.out).toMatch(/^Vuser 1:[A-Z_]+ SCHEMA COMPLETE\nVuser 1:FINISHED SUCCESS\nALL VIRTUAL USERS COMPLETE\nSCHEMA BUILD COMPLETED\nCHECK SCHEMA STARTED\nChecking schema with 1 Virtual User\n/m);
    expect(r.out).toMatch(/Vuser 1:FINISHED SUCCESS\nALL VIRTUAL USERS COMPLETE\nCHECK SCHEMA COMPLETED\n$/);
  });

  // Quiet on PostgreSQL: the run's engine TPM is a server-wide counter (another suite's dropped database resets it: TPM 0).
  it('a run script: the job id it writes to $TMP is a completed run equal to the one the UI creates', () => quietOnPostgres(e)(async () => {
    const r = await hammerdb(runScript(e), server.flags, false, { name: `${e.prefix}_tprocc_run.py`, tmp });
    expect(r.code, r.err).toBe(0);
    // A database dropped by a suite outside the quiet section still lowers the server-wide counter: the run says so (TPM 0).
    const reset = /^Vuser 1:Warning: the \w+ transaction counter was reset during the measured window/m.test(r.out);
    expect(r.out).toMatch(new RegExp(`^Vuser 1:TEST RESULT : System achieved [1-9]\\d* NOPM from ${reset ? '\\d+' : '[1-9]\\d*'} ${e.name} TPM$`, 'm'));
    expect(r.out).toMatch(/^Vuser 1:1 Active Virtual Users configured$/m);
    expect(r.out).toMatch(/ALL VIRTUAL USERS COMPLETE\n(?:Vuser \d+:[^\n]*\n)*vudestroy success\nTransaction Counter Stopped[^\n]*\nTEST COMPLETE\n$/);
    const saved = readFileSync(join(tmp, `${e.prefix}_tprocc`), 'utf8');
    expect(saved).toMatch(/^Benchmark Run jobid=[0-9A-F]{24}$/);
    const run = await getJob(server.url, saved.split('=')[1]!);
    expect(run.status).toBe('completed');
    const ui = await uiJob(server.url, { type: 'run', target: e.uiTarget, tprocc: { vus: 1, rampup: 0, duration: 0.05, allWarehouse: true, timeProfile: true, schema: e.uiSchema } });
    expect(ui.status).toBe('completed');
    expect(workloadConfig(run)).toEqual(workloadConfig(ui));
  }), quietTimeout(300_000));

  it('a delete script removes it', async () => {
    const r = await hammerdb(deleteScript(e), server.flags, false, { name: `${e.prefix}_tprocc_deleteschema.py`, tmp });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/DROP SCHEMA STARTED\nScript cleared\nDeleting schema with 1 Virtual User\nDo you want to delete the [^\n]+\n[^\n]+\?\nEnter yes or no: replied yes\nVuser 1 created - WAIT IDLE\nVuser 1:RUNNING\n/);
    expect(r.out).toMatch(/Vuser 1:FINISHED SUCCESS\nALL VIRTUAL USERS COMPLETE\nDROP SCHEMA COMPLETED\n$/);
  });
});
