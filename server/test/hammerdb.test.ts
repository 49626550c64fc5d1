import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJobCreate, parseWorkloadJob, TARGET_SCHEMAS, TproccOptions, TprochOptions, type EngineId, type TprochJobConfig } from '@sledge/protocol';
import { buildApp } from '../dist/app.js';
import { DATABASES, defaultDict, keyName } from '../dist/routes/hammerdb/dicts.js';
import { convert, dictToSledge, dictToSledgeTproch, keyForField, KeyValueError, mappedKeys, sledgeToDict } from '../dist/routes/hammerdb/keymap.js';
import { parsePairs } from '../dist/routes/hammerdb/reply.js';
import { queryParams, statusLines, wantsJobsViewer } from '../dist/routes/hammerdb/jobs-viewer.js';
import { err, expectSucceeded, hdb, jobIdOf, message, ok, waitComplete } from './hammerdb-api.js';
import { makeApp, type SledgeApp } from './helpers.js';

/**
 * The HammerDB-compatible command API (routes/hammerdb): the replies of
 * HammerDB's own web-service test script (seed 000, v3.2 restchk.tcl), a full
 * SQLite flow driven only through it, the key mapping per engine, and the
 * /jobs split with the dashboard. PostgreSQL build/delete is
 * hammerdb-postgresql.test.ts (live tier), datagenrun hammerdb-datagen.test.ts.
 */

describe('print?db names the database the session currently sets', () => {
  let s: SledgeApp;
  beforeAll(async () => {
    s = await makeApp();
  });
  afterAll(async () => {
    await s.app.close();
  });

  it('follows dbset and diset of the database key, per database and benchmark', async () => {
    const db = async () => (await hdb(s, 'GET', '/print?db')) as Record<string, string>;
    // Oracle's TPROC-C schema is its user's.
    expect(await db()).toMatchObject({ current: 'Oracle', database: 'tpcc' });
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "key": "tpcc_user", "value": "bench" ')).toEqual(ok('Changed tpcc:tpcc_user from tpcc to bench for Oracle'));
    expect(await db()).toMatchObject({ current: 'Oracle', database: 'bench' });

    expect(await hdb(s, 'POST', '/dbset', ' "db": "pg" ')).toEqual(ok('Database set to PostgreSQL'));
    expect(await db()).toMatchObject({ current: 'PostgreSQL', database: 'tpcc' });
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "key": "pg_dbase", "value": "sales_tpcc" ')).toEqual(ok('Changed tpcc:pg_dbase from tpcc to sales_tpcc for PostgreSQL'));
    expect(await db()).toMatchObject({ current: 'PostgreSQL', database: 'sales_tpcc' });
    // The same through the direct page, and the other benchmark's database key.
    expect(await hdb(s, 'GET', '/db')).toMatchObject({ database: 'sales_tpcc' });
    expect(await hdb(s, 'POST', '/dbset', ' "bm": "TPC-H" ')).toEqual(ok('Benchmark set to TPC-H for PostgreSQL'));
    expect(await db()).toMatchObject({ current: 'PostgreSQL', database: 'tpch' });
    expect(await hdb(s, 'POST', '/dbset', ' "bm": "TPC-C" ')).toEqual(ok('Benchmark set to TPC-C for PostgreSQL'));

    expect(await hdb(s, 'POST', '/dbset', ' "db": "sqlite" ')).toEqual(ok('Database set to SQLite'));
    expect(await db()).toMatchObject({ current: 'SQLite', database: 'tprocc.sqlite' });
    expect(await hdb(s, 'POST', '/diset', ' "dict": "connection", "key": "sqlite_file", "value": "hdb.sqlite" ')).toEqual(ok('Changed connection:sqlite_file from tprocc.sqlite to hdb.sqlite for SQLite'));
    expect(await db()).toMatchObject({ current: 'SQLite', database: 'hdb.sqlite' });
    // Each database keeps its own dict: back on PostgreSQL, its database is still the one set there.
    expect(await hdb(s, 'POST', '/dbset', ' "db": "pg" ')).toEqual(ok('Database set to PostgreSQL'));
    expect(await db()).toMatchObject({ current: 'PostgreSQL', database: 'sales_tpcc' });
  });
});

describe('HammerDB web-service script (seed 000 restchk.tcl) replayed', () => {
  let s: SledgeApp & { dataDir: string };
  beforeAll(async () => {
    s = await makeApp();
  });
  afterAll(async () => {
    await s.app.close();
  });

  it('answers the print commands, direct and as print?option', async () => {
    expect(await hdb(s, 'POST', '/clearscript', '')).toEqual(ok('Script cleared'));
    for (const prefix of ['/', '/print?']) {
      expect(await hdb(s, 'GET', `${prefix}db`)).toEqual({
        current: 'Oracle',
        database: 'tpcc',
        ora: 'Oracle',
        mssqls: 'MSSQLServer',
        db2: 'Db2',
        mysql: 'MySQL',
        pg: 'PostgreSQL',
        maria: 'MariaDB',
        sqlite: 'SQLite',
      });
      expect(await hdb(s, 'GET', `${prefix}bm`)).toEqual({ benchmark: 'TPC-C' });
      const dict = (await hdb(s, 'GET', `${prefix}dict`)) as Record<string, Record<string, string>>;
      expect(Object.keys(dict)).toEqual(['connection', 'tpcc']);
      expect(dict['connection']).toEqual({ system_user: 'system', system_password: '********', instance: 'oracle', rac: '0' });
      expect(dict['tpcc']).toMatchObject({ count_ware: '1', num_vu: '1', tpcc_user: 'tpcc', tpcc_pass: '********', ora_driver: 'timed', rampup: '2', duration: '5', ora_timeprofile: 'false', total_iterations: '10000000' });
      expect(await hdb(s, 'GET', `${prefix}script`)).toEqual(err('No Script loaded: load with loadscript'));
      expect(await hdb(s, 'GET', `${prefix}vuconf`)).toEqual({
        'Virtual Users': '1',
        'User Delay(ms)': '500',
        'Repeat Delay(ms)': '500',
        Iterations: '1',
        'Show Output': '1',
        'Log Output': '0',
        'Unique Log Name': '0',
        'No Log Buffer': '0',
        'Log Timestamps': '0',
      });
      expect(await hdb(s, 'GET', `${prefix}vucreated`)).toEqual({ 'Virtual Users created': '0' });
      expect(await hdb(s, 'GET', `${prefix}vustatus`)).toEqual({ 'Virtual User status': 'No Virtual Users found' });
      expect(await hdb(s, 'GET', `${prefix}datagen`)).toEqual({ schema: 'TPC-C', database: 'Oracle', warehouses: '1', vu: '1', directory: join(s.dataDir, 'datagen') });
      expect(await hdb(s, 'GET', `${prefix}tcconf`)).toEqual({ tc_refresh_rate: '10', tc_log_to_temp: '0', tc_unique_log_name: '0', tc_log_timestamps: '0' });
    }
    expect(await hdb(s, 'GET', '/print?nothing')).toEqual({ usage: { message: 'print?option' } });
    const libs = (await hdb(s, 'GET', '/librarycheck')) as string[];
    expect(libs).toHaveLength(7);
    expect(libs.find((l) => l.endsWith(' for SQLite'))).toMatch(/^success \.\.\. loaded library \S+ for SQLite$/);
    expect(libs.find((l) => l.endsWith(' for PostgreSQL'))).toMatch(/^success \.\.\. loaded library \S+ for PostgreSQL$/);
  });

  it('diset: changes, errors, and the driver key', async () => {
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "key": "count_ware", "value": "800" ')).toEqual(ok('Changed tpcc:count_ware from 1 to 800 for Oracle'));
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "key": "count_ware", "value": "800" ')).toEqual(ok('Value 800 for tpcc:count_ware is the same as existing value 800, no change made'));
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "key": "tpcc_pass", "value": "new_password" ')).toEqual(ok('Changed tpcc:tpcc_pass from ******** to ******** for Oracle'));
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "ke ')).toEqual(err(`Not a valid JSON string: '{ "dict": "tpcc", "ke }'`));
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpcc" ')).toEqual(err('Incorrect number of parameters to diset dict key value'));
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "key": "tpcds_pass", "value": "new_password" ')).toEqual(err('Dictionary "tpcc" for Oracle exists but key "tpcds_pass" doesn\'t'));
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpcfg", "key": "tpcds_pass", "value": "new_password" ')).toEqual(err('Dictionary "tpcfg" for Oracle does not exist'));
    expect(await hdb(s, 'POST', '/diset', ' "dict": "connection", "key": "count_ware", "value": "2" ')).toEqual(err('Dictionary "connection" for Oracle exists but key "count_ware" doesn\'t: it is in dictionary "tpcc"'));
    // HammerDB 3.2 defaulted ora_driver to test; since 4.x it is timed, so go through test first.
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "key": "ora_driver", "value": "test" ')).toEqual(ok('Set driver script to test, clearing Script, reload script to activate new setting'));
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "key": "ora_driver", "value": "timed" ')).toEqual(ok('Set driver script to timed, clearing Script, reload script to activate new setting'));
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "key": "ora_driver", "value": "timid" ')).toEqual(err('Error: Driver script must be either "test" or "timed"'));
    expect(await hdb(s, 'POST', '/diset', '{"dict":"tpcc","key":"rampup","value":"two"}', { 'content-type': 'application/json' })).toEqual(err('Value two for tpcc:rampup must be a number'));
    // A key Sledge has no field for is accepted at its default only, and refused otherwise, saying why.
    expect(await hdb(s, 'POST', '/diset', '{"dict":"tpcc","key":"hash_clusters","value":"true"}', { 'content-type': 'application/json' })).toEqual(
      err('Value true for tpcc:hash_clusters is not supported: Sledge does not build hash clusters: its Oracle schema uses heap tables and indexes; hash_clusters must be false'),
    );
    expect(((await hdb(s, 'GET', '/dict')) as Record<string, Record<string, string>>)['tpcc']!['hash_clusters']).toBe('false');
  });

  it('scripts, dbset, vuset, dgset and customscript', async () => {
    expect(await hdb(s, 'POST', '/clearscript', '')).toEqual(ok('Script cleared'));
    expect(await hdb(s, 'POST', '/loadscript', '')).toEqual(ok('script loaded'));
    const script = (await hdb(s, 'GET', '/print?script')) as { script: string };
    expect(script.script).toMatch(/^Sledge runs TPROC-C natively; no Tcl driver script\. vurun runs the timed driver on Oracle/);
    expect(await hdb(s, 'GET', '/vustatus')).toEqual({ 'Virtual User status': 'No Virtual Users found' });
    expect(await hdb(s, 'POST', '/dbset', ' "db": "mssqs" ')).toEqual(err('Unknown prefix mssqs, choose one from ora mssqls db2 mysql pg maria sqlite'));
    expect(await hdb(s, 'POST', '/dbset', ' "dx": "mssqls" ')).toEqual(err('Invalid option to dbset key value'));
    expect(await hdb(s, 'POST', '/dbset', ' "db": "pg" ')).toEqual(ok('Database set to PostgreSQL'));
    expect(await hdb(s, 'POST', '/dbset', ' "bm": "TPC-X" ')).toEqual(err('Unknown benchmark TPC-X, choose one from TPC-C TPC-H'));
    expect(await hdb(s, 'POST', '/dbset', ' "bm": "TPC-H" ')).toEqual(ok('Benchmark set to TPC-H for PostgreSQL'));
    expect(Object.keys((await hdb(s, 'GET', '/dict')) as object)).toEqual(['connection', 'tpch']);
    // TPC-H verbs submit TPROC-H jobs; a bad tpch value is refused naming its key, with nothing created.
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpch", "key": "pg_scale_fact", "value": "0" ')).toEqual(ok('Changed tpch:pg_scale_fact from 1 to 0 for PostgreSQL'));
    expect(message(await hdb(s, 'POST', '/buildschema', ''))).toMatch(/tproch\.scaleFactor.*\(HammerDB key pg_scale_fact\)$/);
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpch", "key": "pg_scale_fact", "value": "1" ')).toEqual(ok('Changed tpch:pg_scale_fact from 0 to 1 for PostgreSQL'));
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpch", "key": "pg_refresh_on", "value": "true" ')).toEqual(ok('Changed tpch:pg_refresh_on from false to true for PostgreSQL'));
    expect(await hdb(s, 'POST', '/vuset', ' "vu": "2" ')).toEqual(ok('Virtual users set to 2'));
    expect(await hdb(s, 'POST', '/vurun', '')).toEqual(err('A throughput test with refresh_on needs at least 3 Virtual Users: 1 refresh stream and 2 query streams'));
    expect(await hdb(s, 'POST', '/vuset', ' "vu": "1" ')).toEqual(ok('Virtual users set to 1'));
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpch", "key": "pg_refresh_on", "value": "false" ')).toEqual(ok('Changed tpch:pg_refresh_on from true to false for PostgreSQL'));
    expect(await hdb(s, 'POST', '/datagenrun', '')).toEqual(err('datagenrun writes TPROC-C files only: dbset bm TPC-C (or TPROC-C) to generate data'));
    expect(await hdb(s, 'POST', '/dbset', ' "bm": "tproc-c" ')).toEqual(ok('Benchmark set to TPROC-C for PostgreSQL'));
    expect(await hdb(s, 'GET', '/bm')).toEqual({ benchmark: 'TPC-C' });
    expect(await hdb(s, 'POST', '/dbset', ' "db": "pg", "bm": "TPC-C" ')).toEqual(err('Incorrect number of parameters to dbset key value'));
    expect(await hdb(s, 'POST', '/vuset', ' "vuxx": "109" ')).toEqual(err('Invalid option to vuset key value'));
    expect(await hdb(s, 'POST', '/vuset', ' "vu": "10" ')).toEqual(ok('Virtual users set to 10'));
    expect(await hdb(s, 'POST', '/vuset', ' "vu": "0" ')).toEqual(err('The number of virtual users must be 1 or greater'));
    expect(await hdb(s, 'POST', '/vuset', ' "delay": "x" ')).toEqual(err('User Delay(ms) must be an integer'));
    expect(await hdb(s, 'POST', '/vuset', ' "showoutput": "2" ')).toEqual(err('Show Output must be 0 or 1'));
    expect(await hdb(s, 'POST', '/vuset', ' "logtotemp": "2" ')).toEqual(err('Log Output must be 0 or 1'));
    expect(await hdb(s, 'POST', '/vuset', ' "logtotemp": "1" ')).toEqual(ok('Log Output set to 1'));
    expect(await hdb(s, 'POST', '/vuset', ' "logtotemp": "0" ')).toEqual(ok('Log Output set to 0'));
    expect(await hdb(s, 'POST', '/vuset', ' "repeat": "250" ')).toEqual(ok('Repeat Delay(ms) set to 250'));
    expect(await hdb(s, 'POST', '/tcset', ' "refreshrate": "60" ')).toEqual(err('Refresh rate must be more than 0 secs and less than 60 secs'));
    expect(await hdb(s, 'POST', '/tcset', ' "refreshrate": "5" ')).toEqual(ok('Transaction Counter refresh rate set to 5'));
    // HammerDB 3.2 echoed the previous directory here (/tmp for /home/oracle); Sledge sets a writable one and refuses others.
    expect(await hdb(s, 'POST', '/dgset', ` "directory": "${tmpdir()}" `)).toEqual(ok(`Set directory to ${tmpdir()} for data generation`));
    expect(await hdb(s, 'POST', '/dgset', ' "directory": "/nonexistent/hdb" ')).toEqual(err('Files cannot be written to chosen directory you must create /nonexistent/hdb before generating data'));
    expect(await hdb(s, 'POST', '/dgset', ' "vu": "2" ')).toEqual(err('Build virtual users 2 must be less than or equal to number of warehouses 1'));
    expect(await hdb(s, 'POST', '/dgset', ' "warehouse": "4" ')).toEqual(ok('Set warehouses to 4 for data generation'));
    expect(message(await hdb(s, 'POST', '/customscript', JSON.stringify({ script: 'puts "hello"' })))).toMatch(/^customscript takes a HammerDB-generated TPROC-C or TPROC-H driver script/);
    expect(await hdb(s, 'POST', '/echo', ' "type": "success", "key": "message", "value": "Timer: 1 minutes elapsed" ')).toEqual(ok('Timer: 1 minutes elapsed'));
  });

  it('emulates the VU lifecycle: vucreate, vustatus, vudestroy', async () => {
    expect(await hdb(s, 'POST', '/vuset', ' "vu": "5" ')).toEqual(ok('Virtual users set to 5'));
    expect(await hdb(s, 'POST', '/vucreate', '')).toEqual(ok('6 Virtual Users Created with Monitor VU'));
    expect(await hdb(s, 'POST', '/vucreate', '')).toEqual(err('Virtual Users exist, destroy with vudestroy before creating'));
    expect(await hdb(s, 'GET', '/vustatus')).toEqual({ 'Virtual User status': '1 {WAIT IDLE} 2 {WAIT IDLE} 3 {WAIT IDLE} 4 {WAIT IDLE} 5 {WAIT IDLE} 6 {WAIT IDLE}' });
    expect(await hdb(s, 'GET', '/vucreated')).toEqual({ 'Virtual Users created': '6' });
    expect(await hdb(s, 'POST', '/vuset', ' "vu": "3" ')).toEqual(err('Virtual Users exist, destroy with vudestroy before changing settings'));
    expect(await hdb(s, 'POST', '/buildschema', '')).toEqual(err('Cannot build schema with Virtual Users active, destroy Virtual Users first'));
    expect(await hdb(s, 'POST', '/vudestroy', '')).toEqual(ok('vudestroy success'));
    expect(await hdb(s, 'GET', '/vustatus')).toEqual({ 'Virtual User status': 'No Virtual Users found' });
    expect(await hdb(s, 'POST', '/vudestroy', '')).toEqual(err('No virtual users found to destroy'));
    expect(await hdb(s, 'POST', '/clearscript', '')).toEqual(ok('Script cleared'));
    expect(await hdb(s, 'POST', '/vucreate', '')).toEqual(err('No Script loaded: Load script before creating Virtual Users'));
  });

  it('never prints or echoes a password', async () => {
    for (const d of DATABASES) {
      expect(await hdb(s, 'POST', '/dbset', JSON.stringify({ db: d.prefix }))).toEqual(ok(`Database set to ${d.name}`));
      for (const section of ['connection', 'tpcc', 'tpch']) {
        const keys = Object.keys(defaultDict(d.prefix)[section as 'tpcc'] ?? {}).filter((k) => /pass/.test(k));
        for (const key of keys) {
          const r = await hdb(s, 'POST', '/diset', JSON.stringify({ dict: section, key, value: 'Sup3r-Secret' }));
          // Db2's catalog password is a key Sledge does not use: refused, still without the value.
          if (key === 'db2_def_pass') expect(message(r)).toMatch(/^Value \*{8} for connection:db2_def_pass is not supported: /);
          else expect(r).toEqual(ok(`Changed ${section}:${key} from ******** to ******** for ${d.name}`));
        }
      }
      for (const bm of ['TPC-C', 'TPC-H']) {
        await hdb(s, 'POST', '/dbset', JSON.stringify({ bm }));
        const dict = JSON.stringify(await hdb(s, 'GET', '/print?dict'));
        expect(dict).not.toContain('Sup3r-Secret');
        if (d.prefix !== 'sqlite') expect(dict).toContain('********');
      }
      await hdb(s, 'POST', '/dbset', '{"bm":"TPC-C"}');
      await hdb(s, 'POST', '/loadscript', '');
      expect(JSON.stringify(await hdb(s, 'GET', '/print?script'))).not.toContain('Sup3r-Secret');
    }
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "key": "sqlite_pass", "value": "Sup3r-Secret ')).toEqual(err('Not a valid JSON string (not echoed: it may hold a password)'));
  });
});

describe('SQLite through the HammerDB API', () => {
  let s: SledgeApp;
  let buildId = '';
  let runId = '';
  beforeAll(async () => {
    s = await makeApp();
  });
  afterAll(async () => {
    await s.app.close();
  });

  it('builds 1 warehouse: buildschema, then jobs?jobid=ID&status until complete', async () => {
    expect(await hdb(s, 'POST', '/dbset', ' "db": "sqlite" ')).toEqual(ok('Database set to SQLite'));
    expect(await hdb(s, 'POST', '/dbset', ' "bm": "TPC-H" ')).toEqual(ok('Benchmark set to TPC-H for SQLite'));
    expect(await hdb(s, 'POST', '/dbset', ' "bm": "TPC-C" ')).toEqual(ok('Benchmark set to TPC-C for SQLite'));
    expect(await hdb(s, 'POST', '/diset', ' "dict": "connection", "key": "sqlite_file", "value": "hdb.sqlite" ')).toEqual(ok('Changed connection:sqlite_file from tprocc.sqlite to hdb.sqlite for SQLite'));
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "key": "sqlite_count_ware", "value": "abc" ')).toEqual(err('Value abc for tpcc:sqlite_count_ware must be an integer'));
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "key": "sqlite_num_vu", "value": "2" ')).toEqual(ok('Changed tpcc:sqlite_num_vu from 1 to 2 for SQLite'));
    expect(await hdb(s, 'POST', '/buildschema', '')).toEqual(err('Build virtual users must be less than or equal to number of warehouses. You have 2 virtual users building 1 warehouses'));
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "key": "sqlite_num_vu", "value": "1" ')).toEqual(ok('Changed tpcc:sqlite_num_vu from 2 to 1 for SQLite'));
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "key": "sqlite_count_ware", "value": "1" ')).toEqual(ok('Value 1 for tpcc:sqlite_count_ware is the same as existing value 1, no change made'));
    const r = await hdb(s, 'POST', '/buildschema', '');
    expect(message(r)).toMatch(/^Building 1 Warehouses\(s\) with 1 Virtual User: JOBID=[0-9A-F]{24}$/);
    // What hammerdbcli prints around it: its implicit clearscript, and the yes/no question it answers itself.
    expect(r).toMatchObject({ clearscript: 'Script cleared', confirm: ['Ready to create a 1 Warehouse SQLite TPROC-C schema', 'in file hdb.sqlite?'] });
    buildId = jobIdOf(r);
    // The build's VUs exist until the job ends.
    expect(await hdb(s, 'POST', '/vuset', ' "vu": "2" ')).toEqual(err('Virtual Users exist, destroy with vudestroy before changing settings'));
    const status = await waitComplete(s, buildId);
    expectSucceeded(status);
    expect(status).toContain('Vuser 1:FINISHED SUCCESS');
    expect(await hdb(s, 'GET', '/vustatus')).toEqual({ 'Virtual User status': '1 {FINISH SUCCESS}' });
    expect(await hdb(s, 'GET', '/vucomplete')).toEqual({ 'Virtual Users complete': 'true' });
    const out = (await hdb(s, 'GET', `/jobs?jobid=${buildId}`)) as string[];
    expect(out.length % 2).toBe(0);
    expect(out.some((l, i) => i % 2 === 1 && /CREATING .* SCHEMA/.test(l))).toBe(true);
    expect(out.filter((_, i) => i % 2 === 0).every((v) => /^\d+$/.test(v))).toBe(true);
    expect(await hdb(s, 'GET', `/jobs?jobid=${buildId}&result`)).toEqual([buildId, 'Jobid has no test result']);
    // HammerDB 4.12's &db: the database and the version the job recorded (DBVersion:), one string a word.
    expect(await hdb(s, 'GET', `/jobs?jobid=${buildId}&db`)).toEqual(['SQLite', expect.stringMatching(/^\d+\.\d+/)]);
    // A second build meets Sledge's preflight: the SledgeError comes back in HammerDB's envelope.
    expect(message(await hdb(s, 'POST', '/buildschema', ''))).toMatch(/^the target already holds a TPROC-C schema \(1 warehouses\)/);
    const c = await hdb(s, 'POST', '/checkschema', '');
    expect(message(c)).toMatch(/^Checking schema with 1 Virtual User: JOBID=[0-9A-F]{24}$/);
    expectSucceeded(await waitComplete(s, jobIdOf(c)));
  });

  it('refuses what Sledge refuses, naming the HammerDB key', async () => {
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "key": "sqlite_duration", "value": "0.01" ')).toEqual(ok('Changed tpcc:sqlite_duration from 5 to 0.01 for SQLite'));
    // buildschema cleared the script: vurun runs only a loaded one (HammerDB's web service).
    expect(await hdb(s, 'POST', '/vurun', '')).toEqual(err('Error: There is no workload to run because the Script is empty'));
    expect(await hdb(s, 'POST', '/loadscript', '')).toEqual(ok('script loaded'));
    const r = await hdb(s, 'POST', '/vurun', '');
    expect(message(r)).toMatch(/duration.*\(HammerDB key sqlite_duration\)$/);
    expect(Object.keys(r)).toEqual(['error']);
    expect(await hdb(s, 'POST', '/vuset', ' "vu": "20000" ')).toEqual(ok('Virtual users set to 20000'));
    expect(message(await hdb(s, 'POST', '/vurun', ''))).toMatch(/\(HammerDB (key sqlite_duration|vuset vu)\)$/);
  });

  it('runs timed: vurun, poll, result, timing, tcount, dict', async () => {
    expect(await hdb(s, 'POST', '/vuset', ' "vu": "2" ')).toEqual(ok('Virtual users set to 2'));
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "key": "sqlite_rampup", "value": "0" ')).toEqual(ok('Changed tpcc:sqlite_rampup from 2 to 0 for SQLite'));
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "key": "sqlite_duration", "value": "0.15" ')).toEqual(ok('Changed tpcc:sqlite_duration from 0.01 to 0.15 for SQLite'));
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "key": "sqlite_timeprofile", "value": "true" ')).toEqual(ok('Changed tpcc:sqlite_timeprofile from false to true for SQLite'));
    expect(await hdb(s, 'POST', '/tcset', ' "refreshrate": "2" ')).toEqual(ok('Transaction Counter refresh rate set to 2'));
    const r = await hdb(s, 'POST', '/vurun', '');
    expect(message(r)).toMatch(/^Running Virtual Users: JOBID=[0-9A-F]{24}$/);
    runId = jobIdOf(r);
    expect(message(await hdb(s, 'POST', '/vurun', ''))).toBe(`Error running virtual users: job ${runId} is still running, wait for it to complete or stop it with vudestroy`);
    expect(await hdb(s, 'GET', '/vucreated')).toEqual({ 'Virtual Users created': '3' });
    const status = await waitComplete(s, runId);
    expectSucceeded(status);
    expect(status).toEqual(expect.arrayContaining(['Vuser 1:RUNNING', 'Vuser 1:FINISHED SUCCESS']));
    expect(await hdb(s, 'GET', '/vustatus')).toEqual({ 'Virtual User status': '1 {FINISH SUCCESS} 2 {FINISH SUCCESS} 3 {FINISH SUCCESS}' });

    const res = (await hdb(s, 'GET', `/jobs?jobid=${runId}&result`)) as string[];
    expect(res).toHaveLength(4);
    expect(res[0]).toBe(runId);
    expect(res[1]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(res[2]).toBe('2 Active Virtual Users configured');
    expect(res[3]).toMatch(/^TEST RESULT : System achieved [1-9]\d* NOPM from [1-9]\d* SQLite TPM$/);

    const timing = (await hdb(s, 'GET', `/jobs?jobid=${runId}&timing`)) as Record<string, Record<string, string>>;
    expect(Object.keys(timing).sort()).toEqual(['DELIVERY', 'NEWORD', 'OSTAT', 'PAYMENT', 'SLEV']);
    expect(Object.keys(timing['NEWORD']!)).toEqual(['elapsed_ms', 'calls', 'min_ms', 'avg_ms', 'max_ms', 'total_ms', 'p99_ms', 'p95_ms', 'p75_ms', 'p50_ms', 'p25_ms', 'sd', 'ratio_pct']);
    expect(Number(timing['NEWORD']!['calls'])).toBeGreaterThan(0);
    const perVu = (await hdb(s, 'GET', `/jobs?jobid=${runId}&timing&vu=2`)) as Record<string, Record<string, string>>;
    expect(Number(perVu['NEWORD']!['calls'])).toBeGreaterThan(0);
    expect(await hdb(s, 'GET', `/jobs?jobid=${runId}&timing&vu=9`)).toEqual(err(`No Timing Data for VU 9 for JOB ${runId}: jobs?jobid=JOBID&timing&vu=VUID`));

    const tcount = (await hdb(s, 'GET', `/jobs?jobid=${runId}&tcount`)) as Record<string, Record<string, string>>;
    expect(Object.keys(tcount)).toEqual(['SQLite tpm']);
    const points = Object.entries(tcount['SQLite tpm']!);
    expect(points.length).toBeGreaterThan(2);
    expect(points.every(([ts, v]) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(ts) && /^\d+$/.test(v))).toBe(true);
    expect(points.some(([, v]) => Number(v) > 0)).toBe(true);

    expect(await hdb(s, 'GET', `/jobs?jobid=${runId}&bm`)).toEqual(['TPC-C']);
    const dict = (await hdb(s, 'GET', `/jobs?jobid=${runId}&dict`)) as Record<string, Record<string, string>>;
    expect(dict['connection']!['sqlite_file']).toMatch(/hdb\.sqlite$/);
    expect(dict['tpcc']).toMatchObject({ sqlite_rampup: '0', sqlite_duration: '0.15', sqlite_driver: 'timed', sqlite_timeprofile: 'true' });
    // HammerDB 4.12's shape: the date-and-time value becomes a dict of its own (wapp-2-json 2).
    const [date, time] = res[1]!.split(' ');
    expect(await hdb(s, 'GET', `/jobs?jobid=${runId}&timestamp`)).toEqual({ [runId]: { [date!]: time } });
    const monitor = (await hdb(s, 'GET', `/jobs?jobid=${runId}&vu=1`)) as string[];
    expect(monitor).toContain(res[3]!);
    expect(await hdb(s, 'GET', `/jobs?jobid=${runId}&vu=99`)).toEqual(err(`Jobid ${runId} for virtual user 99 does not exist`));
    expect(message(await hdb(s, 'GET', `/jobs?jobid=${runId}&bogus`))).toMatch(/^Jobs Two Parameter Usage: /);
    expect(message(await hdb(s, 'GET', `/jobs?jobid=${runId}&timing&bogus`))).toBe('Jobs Three Parameter Usage: jobs?jobid=JOBID&timing&vu=VUID');
    expect(await hdb(s, 'GET', '/jobs?result')).toEqual(err('Jobs One Parameter Usage: jobs?jobid=TEXT'));
    // The version is VU 1's DBVersion: line, as HammerDB 4.12 reads it.
    const version = /DBVersion:(\S+)/.exec(monitor.join(' '))?.[1];
    expect(version).toMatch(/^\d+\.\d+/);
    expect(await hdb(s, 'GET', `/jobs?jobid=${runId.toLowerCase()}&db`)).toEqual(['SQLite', version]);
    const all = (await hdb(s, 'GET', '/jobs')) as string[];
    expect(all.indexOf(buildId)).toBeGreaterThanOrEqual(0);
    expect(all.indexOf(buildId)).toBeLessThan(all.indexOf(runId));
    expect(await hdb(s, 'POST', '/vudestroy', '')).toEqual(ok('vudestroy success'));
  });

  it('runs the test driver (no result) and vudestroy stops a running job', async () => {
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "key": "sqlite_driver", "value": "test" ')).toEqual(ok('Set driver script to test, clearing Script, reload script to activate new setting'));
    expect(await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "key": "sqlite_total_iterations", "value": "20" ')).toEqual(ok('Changed tpcc:sqlite_total_iterations from 10000000 to 20 for SQLite'));
    expect(await hdb(s, 'POST', '/loadscript', '')).toEqual(ok('script loaded'));
    expect(await hdb(s, 'POST', '/vucreate', '')).toEqual(ok('2 Virtual Users Created'));
    const t = jobIdOf(await hdb(s, 'POST', '/vurun', ''));
    expectSucceeded(await waitComplete(s, t));
    expect(await hdb(s, 'GET', `/jobs?jobid=${t}&result`)).toEqual([t, 'Jobid has no test result']);

    expect(message(await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "key": "sqlite_driver", "value": "timed" '))).toMatch(/^Set driver script to timed/);
    await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "key": "sqlite_duration", "value": "5" ');
    await hdb(s, 'POST', '/diset', ' "dict": "tpcc", "key": "sqlite_total_iterations", "value": "10000000" ');
    await hdb(s, 'POST', '/loadscript', '');
    const long = jobIdOf(await hdb(s, 'POST', '/vurun', ''));
    for (let i = 0; i < 200 && s.store.getJob(long)!.status !== 'measuring'; i++) await new Promise((r) => setTimeout(r, 100));
    // Past the user delay between VU starts and a per-VU state update (every second).
    await new Promise((r) => setTimeout(r, 2500));
    expect((await hdb(s, 'GET', '/vustatus')) as object).toEqual({ 'Virtual User status': '1 RUNNING 2 RUNNING 3 RUNNING' });
    expect(await hdb(s, 'GET', `/jobs?jobid=${long}&delete`)).toEqual(err(`Jobid ${long} is measuring: wait for it to end (or vudestroy) before deleting it`));
    expect(await hdb(s, 'POST', '/vudestroy', '')).toEqual(ok('vudestroy success'));
    expect(s.store.getJob(long)!.status).toBe('stopped');
    expect(await hdb(s, 'GET', '/vustatus')).toEqual({ 'Virtual User status': 'No Virtual Users found' });
    // What the stopped run leaves says finished, not running: every VU's state, and the status stream (VU 0).
    expect(s.store.getVus(long).filter((v) => v.state === 'running' || v.state === 'connecting' || v.state === 'idle')).toEqual([]);
    const stream = ((await hdb(s, 'GET', `/jobs?jobid=${long}&status`)) as string[]).filter((_, i) => i % 2 === 1);
    for (const n of [1, 2, 3]) expect(stream.findIndex((l) => new RegExp(`^Vuser ${n}:FINISHED `).test(l)), `${stream.join(' | ')}`).toBeGreaterThan(stream.indexOf(`Vuser ${n}:RUNNING`));
    expect(stream[stream.length - 1]).toBe('ALL VIRTUAL USERS COMPLETE');
    expect(await hdb(s, 'GET', `/jobs?jobid=${long}&delete`)).toEqual(ok(`Deleted Jobid ${long}`));
    expect(await hdb(s, 'GET', `/jobs?jobid=${long}`)).toEqual(err(`Jobid ${long} does not exist`));
  });

  it('deletes the schema', async () => {
    const d = await hdb(s, 'POST', '/deleteschema', '');
    expect(message(d)).toMatch(/^Deleting schema with 1 Virtual User: JOBID=[0-9A-F]{24}$/);
    expect(d).toMatchObject({ clearscript: 'Script cleared', confirm: ['Do you want to delete the TPROC-C schema', 'in file hdb.sqlite?'] });
    expectSucceeded(await waitComplete(s, jobIdOf(d)));
    // deleteschema cleared the script, as HammerDB's does.
    expect(await hdb(s, 'GET', '/print?script')).toEqual(err('No Script loaded: load with loadscript'));
    await hdb(s, 'POST', '/loadscript', '');
    expect(message(await hdb(s, 'POST', '/vurun', ''))).toMatch(/^there is no TPROC-C schema on the target/);
  });
});

describe('key mapping per engine', () => {
  const engines = DATABASES.map((d) => [d.prefix, d.engine] as [string, EngineId]);

  it('maps onto real Sledge fields, and the default dicts make valid jobs', () => {
    const tproccFields = Object.keys((TproccOptions as unknown as { properties: object }).properties);
    const tprochFields = Object.keys((TprochOptions as unknown as { properties: object }).properties);
    for (const [prefix, engine] of engines) {
      const targetFields = Object.keys((TARGET_SCHEMAS[engine] as unknown as { properties: object }).properties);
      for (const [key, x] of mappedKeys(prefix, engine)) {
        const [group, field] = x.path.split('.') as [string, string];
        expect(group === 'target' ? targetFields : group === 'tproch' ? tprochFields : tproccFields, `${prefix}: ${key} -> ${x.path}`).toContain(field);
        const d = defaultDict(prefix);
        expect(d.connection?.[key] ?? d.tpcc?.[key] ?? d.tpch?.[key], `${key} is a ${prefix} dict key`).toBeDefined();
      }
      const f = dictToSledge(prefix, engine, defaultDict(prefix));
      expect(() => parseJobCreate({ type: 'build', target: f.target, tprocc: { warehouses: f.tprocc['warehouses'], buildVus: f.tprocc['buildVus'] } }, 1)).not.toThrow();
      const run = { ...f.tprocc };
      delete run['warehouses'];
      delete run['buildVus'];
      expect(parseJobCreate({ type: 'run', target: f.target, tprocc: run }, 1).tprocc).toMatchObject({ driver: 'timed', rampup: 2, duration: 5, totalIterations: 10000000 });
      const h = dictToSledgeTproch(prefix, engine, defaultDict(prefix));
      const cfg = parseWorkloadJob({ type: 'run', workload: 'tproch', target: h.target, tproch: h.tproch }, 1) as unknown as TprochJobConfig;
      expect(cfg.tproch).toMatchObject({ scaleFactor: 1, querySets: 1, refresh: false, updateSets: 1, trickleMs: 1000 });
    }
  });

  it('reads the tpch section for TPROC-H: its own user, password and database, its driver keys, and writes them back', () => {
    const d = defaultDict('pg');
    d.tpch!['pg_scale_fact'] = '10';
    d.tpch!['pg_degree_of_parallel'] = '8';
    d.tpch!['pg_refresh_on'] = 'true';
    d.tpch!['pg_total_querysets'] = '2';
    const f = dictToSledgeTproch('pg', 'postgresql', d);
    expect(f.target).toMatchObject({ engine: 'postgresql', host: 'localhost', port: 5432, user: 'tpch', password: 'tpch', database: 'tpch', superuser: 'postgres' });
    expect(f.tproch).toEqual({ scaleFactor: 10, buildVus: 1, querySets: 2, raiseQueryError: false, verbose: false, refresh: true, updateSets: 1, trickleMs: 1000, dop: 8 });
    const back = sledgeToDict('pg', 'postgresql', defaultDict('pg'), { target: f.target, tproch: f.tproch });
    expect(back.tpch).toMatchObject({ pg_scale_fact: '10', pg_degree_of_parallel: '8', pg_tpch_user: 'tpch', pg_tpch_dbase: 'tpch', pg_refresh_on: 'true' });
    expect(back.connection).toEqual({ pg_host: 'localhost', pg_port: '5432', pg_sslmode: 'prefer' });
    expect(keyForField('pg', 'postgresql', 'tproch.scaleFactor', true)).toBe('pg_scale_fact');
    expect(keyForField('pg', 'postgresql', 'target.user', true)).toBe('pg_tpch_user');
    d.tpch!['pg_scale_fact'] = 'big';
    expect(() => dictToSledgeTproch('pg', 'postgresql', d)).toThrow(KeyValueError);
  });

  it('converts PostgreSQL keys with types', () => {
    const d = defaultDict('pg');
    expect(Object.keys(d.connection!)).toEqual(['pg_host', 'pg_port', 'pg_sslmode']);
    expect(Object.keys(d.tpcc!).slice(0, 8)).toEqual(['pg_count_ware', 'pg_num_vu', 'pg_superuser', 'pg_superuserpass', 'pg_defaultdbase', 'pg_user', 'pg_pass', 'pg_dbase']);
    d.tpcc!['pg_count_ware'] = '10';
    d.tpcc!['pg_rampup'] = '0.5';
    d.tpcc!['pg_vacuum'] = 'TRUE';
    d.tpcc!['pg_dritasnap'] = 'true';
    const f = dictToSledge('pg', 'postgresql', d);
    expect(f.target).toEqual({
      engine: 'postgresql',
      host: 'localhost',
      port: 5432,
      sslmode: 'prefer',
      superuser: 'postgres',
      superuserPassword: 'postgres',
      defaultDatabase: 'postgres',
      user: 'tpcc',
      password: 'tpcc',
      database: 'tpcc',
      vacuum: true,
    });
    expect(f.tprocc).toEqual({
      // pg_tspace, pg_storedprocs and pg_partition are TPROC-C schema options (tprocc.schema) since they left the target.
      schema: { tablespace: 'pg_default', storedProcs: false, partition: false },
      warehouses: 10,
      buildVus: 1,
      totalIterations: 10000000,
      raiseError: false,
      keyAndThink: false,
      driver: 'timed',
      rampup: 0.5,
      duration: 5,
      allWarehouse: false,
      timeProfile: false,
      asyncScale: false,
      asyncClients: 10,
      asyncDelayMs: 1000,
      asyncVerbose: false,
    });
    d.tpcc!['pg_port'] = 'x';
    d.connection!['pg_port'] = 'x';
    expect(() => dictToSledge('pg', 'postgresql', d)).toThrow(KeyValueError);
    expect(keyForField('pg', 'postgresql', 'target.port')).toBe('pg_port');
    expect(keyForField('pg', 'postgresql', 'tprocc.vus')).toBe('vuset vu');
    expect(keyForField('ora', 'oracle', 'tprocc.driver')).toBe('ora_driver');
    expect(keyForField('ora', 'oracle', 'tprocc.warehouses')).toBe('count_ware');
  });

  it('converts Tcl booleans, integers, numbers and choices', () => {
    for (const t of ['true', 'TRUE', '1', 'yes', 'on']) expect(convert(t, 'bool')).toBe(true);
    for (const f of ['false', '0', 'no', 'off']) expect(convert(f, 'bool')).toBe(false);
    expect(convert('maybe', 'bool')).toBeUndefined();
    expect(convert('12', 'int')).toBe(12);
    expect(convert('1.5', 'int')).toBeUndefined();
    expect(convert('0.25', 'number')).toBe(0.25);
    expect(convert('', 'number')).toBeUndefined();
    expect(convert('timed', { oneOf: ['test', 'timed'] })).toBe('timed');
    expect(convert('timid', { oneOf: ['test', 'timed'] })).toBeUndefined();
  });

  it('names Oracle keys without a prefix except its driver keys', () => {
    expect(keyName('ora', 'count_ware')).toBe('count_ware');
    expect(keyName('ora', 'driver')).toBe('ora_driver');
    expect(keyName('ora', 'timeprofile')).toBe('ora_timeprofile');
    const f = dictToSledge('ora', 'oracle', defaultDict('ora'));
    expect(f.target).toMatchObject({ systemUser: 'system', systemPassword: 'manager', connectString: 'oracle', user: 'tpcc', password: 'tpcc' });
    expect(f.tprocc['schema']).toMatchObject({ defaultTablespace: 'users' });
  });

  it('derives SQL Server host and authentication, MySQL socket and TLS files', () => {
    const ms = defaultDict('mssqls');
    expect(dictToSledge('mssqls', 'mssql', ms).target).toMatchObject({ host: 'localhost', authentication: 'sql', user: 'sa', password: 'admin', port: 1433 });
    expect(dictToSledge('mssqls', 'mssql', ms).tprocc['schema']).toMatchObject({ useBulk: true });
    ms.connection!['mssqls_server'] = 'sqlhost';
    ms.connection!['mssqls_azure'] = 'true';
    expect(dictToSledge('mssqls', 'mssql', ms).target).toMatchObject({ host: 'sqlhost', authentication: 'azure-active-directory-password' });
    ms.connection!['mssqls_linux_server'] = 'linuxhost';
    expect(dictToSledge('mssqls', 'mssql', ms).target['host']).toBe('linuxhost');

    const my = defaultDict('maria');
    expect(dictToSledge('maria', 'mariadb', my).target['socket']).toBeUndefined(); // /tmp/mariadb.sock is not there
    const sock = join(mkdtempSync(join(tmpdir(), 'hdb-sock-')), 'mysqld.sock');
    writeFileSync(sock, '');
    my.connection!['maria_socket'] = sock;
    expect(dictToSledge('maria', 'mariadb', my).target).toMatchObject({ socket: sock, password: 'maria', purge: false });
    my.connection!['maria_host'] = 'db.example';
    expect(dictToSledge('maria', 'mariadb', my).target['socket']).toBeUndefined();
    my.connection!['maria_ssl'] = 'true';
    expect(dictToSledge('maria', 'mariadb', my).target).toMatchObject({ ssl: true, sslCa: '/etc/mysql/certs/ca-cert.pem' });
    expect(dictToSledge('maria', 'mariadb', my).target['sslCert']).toBeUndefined();
    my.connection!['maria_ssl_two_way'] = 'true';
    my.connection!['maria_ssl_key'] = '/keys/k.pem';
    expect(dictToSledge('maria', 'mariadb', my).target).toMatchObject({ sslCert: '/etc/mysql/certs/client-cert.pem', sslKey: '/keys/k.pem' });
  });

  it('reads a stored job config back into dict keys', () => {
    const f = dictToSledge('mysql', 'mysql', defaultDict('mysql'));
    const back = sledgeToDict('mysql', 'mysql', defaultDict('mysql'), { target: f.target, tprocc: f.tprocc });
    expect(back.connection).toEqual({ mysql_host: '127.0.0.1', mysql_port: '3306', mysql_ssl: 'false' });
    expect(back.tpcc).toMatchObject({ mysql_user: 'root', mysql_pass: 'mysql', mysql_count_ware: '1', mysql_driver: 'timed', mysql_duration: '5' });
  });

  it('parses bodies, queries and status the HammerDB way', () => {
    expect(parsePairs(' "db": "pg" ')).toEqual([['db', 'pg']]);
    expect(parsePairs('{"vu": 4}')).toEqual([['vu', '4']]);
    expect(parsePairs('')).toEqual([]);
    expect(() => parsePairs('{"a":{"b":1}}')).toThrow('Value of "a" must be a string');
    expect(queryParams('jobid=AB&timing&vu=2')).toEqual([
      ['jobid', 'AB'],
      ['timing', ''],
      ['vu', '2'],
    ]);
    const job = (status: string) => ({ id: 'X', status }) as unknown as Parameters<typeof statusLines>[0];
    expect(statusLines(job('queued'), [])).toEqual([]);
    expect(statusLines(job('running'), [])).toEqual(['Vuser 1:RUNNING']);
    expect(statusLines(job('failed'), ['Vuser 1:FINISHED FAILED'])).toEqual(['Vuser 1:RUNNING', 'Vuser 1:FINISHED FAILED', 'ALL VIRTUAL USERS COMPLETE']);
    expect(wantsJobsViewer('/jobs', undefined)).toBe(true);
    expect(wantsJobsViewer('/jobs', 'text/html,application/xhtml+xml')).toBe(false);
    expect(wantsJobsViewer('/jobs?status=completed', 'text/html')).toBe(false);
    expect(wantsJobsViewer('/jobs?jobid=AB&result', 'text/html')).toBe(true);
  });
});

describe('/jobs beside the dashboard, and the API token', () => {
  it('gives browsers the dashboard at /jobs and everyone else the jobs viewer', async () => {
    const ui = mkdtempSync(join(tmpdir(), 'hdb-ui-'));
    writeFileSync(join(ui, 'index.html'), '<!doctype html><title>Sledge dashboard</title>');
    const s = await buildApp({ dataDir: mkdtempSync(join(tmpdir(), 'sledge-test-')), logger: false, uiDir: ui });
    try {
      const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
      for (const url of ['/jobs', '/jobs?engine=sqlite&status=completed', '/targets']) {
        const r = await s.app.inject({ method: 'GET', url, headers: html });
        expect(r.statusCode, url).toBe(200);
        expect(r.body, url).toContain('Sledge dashboard');
      }
      const viewer = await s.app.inject({ method: 'GET', url: '/jobs', headers: { accept: '*/*' } });
      expect(JSON.parse(viewer.body)).toEqual([]);
      const byId = await s.app.inject({ method: 'GET', url: '/jobs?jobid=0123456789ABCDEF01234567&status', headers: html });
      expect(JSON.parse(byId.body)).toEqual(err('Jobid 0123456789ABCDEF01234567 does not exist'));
      expect(JSON.parse((await s.app.inject({ method: 'GET', url: '/db' })).body)).toMatchObject({ current: 'Oracle' });
    } finally {
      await s.app.close();
    }
  });

  it('asks for the token when the server has one', async () => {
    const s = await buildApp({ dataDir: mkdtempSync(join(tmpdir(), 'sledge-test-')), logger: false, uiDir: null, token: 'hdb-token' });
    try {
      const denied = await s.app.inject({ method: 'GET', url: '/print?dict' });
      expect(denied.statusCode).toBe(401);
      expect(JSON.parse(denied.body)).toEqual(err('this server needs an API token: send "Authorization: Bearer <token>"'));
      expect((await s.app.inject({ method: 'POST', url: '/dbset', payload: '{"db":"pg"}', headers: { 'content-type': 'application/json' } })).statusCode).toBe(401);
      const bearer = await s.app.inject({ method: 'GET', url: '/print?dict', headers: { authorization: 'Bearer hdb-token' } });
      expect(JSON.parse(bearer.body)).toHaveProperty('connection');
      const query = await s.app.inject({ method: 'GET', url: '/print?dict&token=hdb-token' });
      expect(JSON.parse(query.body)).toHaveProperty('tpcc');
      expect((await s.app.inject({ method: 'GET', url: '/jobs?token=hdb-token' })).body).toBe('[]');
    } finally {
      await s.app.close();
    }
  });
});
