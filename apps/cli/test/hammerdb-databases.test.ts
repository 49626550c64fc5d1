import { describe, expect, it } from 'vitest';
import { quiet, quietTimeout } from '../../../scripts/test-quiet.mjs';
import { getJob, hammerdb, jobIds, sharedServer, uiJob, workloadConfig } from './hammerdb-harness.js';

/**
 * The same HammerDB build / timed run / check / delete scripts against
 * PostgreSQL (database hdb_tcl_pg) and MariaDB (hdb_tcl_maria), and the
 * jobs they create compared with the jobs the UI creates for the same
 * settings. Needs the local PostgreSQL and MariaDB (run under
 * `flock /tmp/sledge-db.lock`).
 */
const server = sharedServer();

interface Engine {
  prefix: string;
  name: string;
  connection: string;
  tpcc: string;
  /** What a user types into the UI's Target page for the same database. */
  uiTarget: Record<string, unknown>;
  uiSchema: Record<string, unknown>;
  /** HammerDB's yes/no questions before buildschema and deleteschema (2 warehouses), as patterns. */
  buildQuestion: string;
  deleteQuestion: string;
  /** deleteschema's lines once the schema (and PostgreSQL's role) are gone, HammerDB's wording. */
  deleted: string[];
}

const ENGINES: Engine[] = [
  {
    prefix: 'pg',
    name: 'PostgreSQL',
    connection: 'diset connection pg_host 127.0.0.1\ndiset connection pg_port 5432',
    tpcc: 'diset tpcc pg_superuser postgres\ndiset tpcc pg_superuserpass postgres\ndiset tpcc pg_defaultdbase postgres\ndiset tpcc pg_user hdb_tcl\ndiset tpcc pg_pass hdb_tcl_pw\ndiset tpcc pg_dbase hdb_tcl_pg',
    uiTarget: { engine: 'postgresql', host: '127.0.0.1', port: 5432, superuser: 'postgres', superuserPassword: 'postgres', user: 'hdb_tcl', password: 'hdb_tcl_pw', database: 'hdb_tcl_pg' },
    uiSchema: { tablespace: 'pg_default', storedProcs: false, partition: false },
    buildQuestion: 'Ready to create a 2 Warehouse PostgreSQL TPROC-C schema\\nin host 127\\.0\\.0\\.1:5432 sslmode PREFER under user HDB_TCL in database HDB_TCL_PG\\?',
    deleteQuestion: 'Do you want to delete the HDB_TCL_PG TPROC-C schema and role HDB_TCL\\n in host 127\\.0\\.0\\.1:5432 under user POSTGRES\\?',
    deleted: ['Vuser 1:hdb_tcl_pg TPROC-C schema has been deleted successfully.', 'Vuser 1:hdb_tcl TPROC-C role has been deleted successfully.'],
  },
  {
    prefix: 'maria',
    name: 'MariaDB',
    connection: 'diset connection maria_host 127.0.0.1\ndiset connection maria_port 3306',
    tpcc: 'diset tpcc maria_user root\ndiset tpcc maria_pass {}\ndiset tpcc maria_dbase hdb_tcl_maria',
    uiTarget: { engine: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'hdb_tcl_maria' },
    uiSchema: {},
    // The socket when the default one (/tmp/mariadb.sock) exists on this host: Sledge then connects through it.
    buildQuestion: 'Ready to create a 2 Warehouse MariaDB TPROC-C schema\\nin host 127\\.0\\.0\\.1:(?:3306|/TMP/MARIADB\\.SOCK) under user ROOT in database HDB_TCL_MARIA with storage engine INNODB\\?',
    deleteQuestion: 'Do you want to delete the HDB_TCL_MARIA TPROC-C schema\\n in host 127\\.0\\.0\\.1:(?:3306|/TMP/MARIADB\\.SOCK) under user ROOT\\?',
    deleted: ['Vuser 1:hdb_tcl_maria TPROC-C Schema has been deleted successfully.'],
  },
];

const script = (e: Engine, body: string) => `puts "SETTING CONFIGURATION"
dbset db ${e.prefix}
dbset bm TPC-C
${e.connection}
${e.tpcc}
diset tpcc ${e.prefix}_count_ware 2
diset tpcc ${e.prefix}_num_vu 2
${body}`;

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

describe.each(ENGINES)('sledge hammerdb on $name', (e) => {
  it('deletes any earlier schema, builds 2 warehouses with 2 build VUs, checks it', async () => {
    const r = await hammerdb(script(e, 'deleteschema\nputs "SCHEMA BUILD STARTED"\nputs [ buildschema ]\nputs [ checkschema ]\n'), server.flags);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`Database set to ${e.name}\n`);
    // hammerdbcli's buildschema: its implicit clearscript, the yes/no question it answers itself, its VUs, then their lines.
    expect(r.out).toMatch(
      new RegExp(
        `SCHEMA BUILD STARTED\\nScript cleared\\nBuilding 2 Warehouses with 3 Virtual Users, 2 active \\+ 1 Monitor VU\\(dict value ${e.prefix}_num_vu is set to 2\\)\\n${e.buildQuestion}\\nEnter yes or no: replied yes\\nVuser 1 created MONITOR - WAIT IDLE\\nVuser 2 created - WAIT IDLE\\nVuser 3 created - WAIT IDLE\\nVuser 1:RUNNING\\n`,
      ),
    );
    expect(r.out).toMatch(/^Vuser 1:[A-Z_]+ SCHEMA COMPLETE\nVuser 1:FINISHED SUCCESS\nALL VIRTUAL USERS COMPLETE\nSchema Build jobid=[0-9A-F]{24}\n/m);
    expect(r.out).toMatch(/^Checking schema with 1 Virtual User\nVuser 1:RUNNING\n/m);
    expect(r.out).toMatch(/Vuser 1:FINISHED SUCCESS\nALL VIRTUAL USERS COMPLETE\nSchema Check jobid=[0-9A-F]{24}\n$/);
    const build = await getJob(server.url, jobIds(r.out, 'Schema Build')[0]!);
    expect([build.type, build.status]).toEqual(['build', 'completed']);
    expect(build.config.tprocc).toMatchObject({ warehouses: 2, buildVus: 2 });
    expect((await getJob(server.url, jobIds(r.out, 'Schema Check')[0]!)).status).toBe('completed');
  });

  // Quiet on PostgreSQL: the run's engine TPM is a server-wide counter (another suite's dropped database resets it: TPM 0).
  it('a timed run returns its jobid; the job equals the one the UI creates for the same settings', () => quietOnPostgres(e)(async () => {
    const r = await hammerdb(
      script(e, `diset tpcc ${e.prefix}_driver timed\ndiset tpcc ${e.prefix}_rampup 0\ndiset tpcc ${e.prefix}_duration 0.05\nloadscript\nvuset vu 2\nvucreate\nset jobid [ vurun ]\nvudestroy\nputs "TEST COMPLETE $jobid"\n`),
      server.flags,
    );
    expect(r.code, r.err).toBe(0);
    // A database another suite drops mid-window lowers PostgreSQL's server-wide counter (the quiet section cannot hold
    // back suites outside it): the run then says so and its TPM counts only the intervals that did not go back (0 here).
    const reset = /^Vuser 1:Warning: the \w+ transaction counter was reset during the measured window/m.test(r.out);
    expect(r.out).toMatch(new RegExp(`^Vuser 1:TEST RESULT : System achieved [1-9]\\d* NOPM from ${reset ? '\\d+' : '[1-9]\\d*'} ${e.name} TPM$`, 'm'));
    expect(r.out).toMatch(/^Vuser 1:2 Active Virtual Users configured$/m);
    expect(r.out).toMatch(/ALL VIRTUAL USERS COMPLETE\n(?:Vuser \d+:[^\n]*\n)*vudestroy success\nTEST COMPLETE Benchmark Run jobid=[0-9A-F]{24}\n$/);
    const run = await getJob(server.url, jobIds(r.out, 'Benchmark Run')[0]!);
    expect(run.status).toBe('completed');
    const ui = await uiJob(server.url, { type: 'run', target: e.uiTarget, tprocc: { vus: 2, rampup: 0, duration: 0.05, schema: e.uiSchema } });
    expect(ui.status).toBe('completed');
    expect(workloadConfig(run)).toEqual(workloadConfig(ui));
  }), quietTimeout(300_000));

  it('deleteschema removes it', async () => {
    const r = await hammerdb(script(e, 'puts [ deleteschema ]\n'), server.flags);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(new RegExp(`^Script cleared\\nDeleting schema with 1 Virtual User\\n${e.deleteQuestion}\\nEnter yes or no: replied yes\\nVuser 1 created - WAIT IDLE\\nVuser 1:RUNNING\\n`, 'm'));
    expect(r.out).toMatch(/Vuser 1:FINISHED SUCCESS\nALL VIRTUAL USERS COMPLETE\nSchema Delete jobid=[0-9A-F]{24}\n$/);
    expect(r.out.split('\n')).toEqual(expect.arrayContaining(e.deleted));
  });
});
