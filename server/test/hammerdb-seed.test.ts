import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type SledgeApp } from './helpers.js';

/**
 * HammerDB's own web-service check script (restchk.tcl, v3.2; seed 000 holds
 * it and the replies it printed) replayed call by call. Every printed reply
 * is compared with the seed's as JSON; the only differences allowed are the
 * ones in DIFFERENCES, each with its reason (README "HammerDB's web-service
 * commands" lists them).
 */

type Json = string | Json[] | { [k: string]: Json };
interface Call {
  method: 'GET' | 'POST';
  url: string;
  body?: string;
  /** The reply the seed shows, or undefined when the script does not print it. */
  seed?: Json;
}

const ok = (message: string) => ({ success: { message } });
const err = (message: string) => ({ error: { message } });

const SEED_DB = { ora: 'Oracle', mssqls: 'MSSQLServer', db2: 'Db2', mysql: 'MySQL', pg: 'PostgreSQL', redis: 'Redis' };
const SEED_DICT = {
  connection: { system_user: 'system', system_password: 'manager', instance: 'oracle', rac: '0' },
  tpcc: {
    count_ware: '1',
    num_vu: '1',
    tpcc_user: 'tpcc',
    tpcc_pass: 'tpcc',
    tpcc_def_tab: 'tpcctab',
    tpcc_ol_tab: 'tpcctab',
    tpcc_def_temp: 'temp',
    partition: 'false',
    hash_clusters: 'false',
    tpcc_tt_compat: 'false',
    total_iterations: '1000000',
    raiseerror: 'false',
    keyandthink: 'false',
    checkpoint: 'false',
    ora_driver: 'test',
    rampup: '2',
    duration: '5',
    allwarehouse: 'false',
    timeprofile: 'false',
  },
};
const SEED_VUCONF = { 'Virtual Users': '1', 'User Delay(ms)': '500', 'Repeat Delay(ms)': '500', Iterations: '1', 'Show Output': '1', 'Log Output': '0', 'Unique Log Name': '0', 'No Log Buffer': '0', 'Log Timestamps': '0' };
const SEED_DATAGEN = { schema: 'TPC-C', database: 'Oracle', warehouses: '1', vu: '1', directory: '/tmp"' };

/** The custom script the check posts (its testscript.tcl is not in the seed): a PostgreSQL TPROC-H driver script as HammerDB generates it, since the script has just set db pg and bm TPC-H. */
const TESTSCRIPT = `#!/usr/local/bin/tclsh8.6
#EDITABLE OPTIONS##################################################
set library Pgtcl ;# PostgreSQL Library
set total_querysets 1 ;# Number of query sets before logging off
set RAISEERROR "false" ;# Exit script on PostgreSQL query error (true or false)
set VERBOSE "false" ;# Show query text and output
set degree_of_parallel "2" ;# Degree of Parallelism
set scale_factor 1 ;#Scale factor of the tpc-h schema
set host "localhost" ;# Address of the server hosting PostgreSQL
set port "5432" ;# Port of the PostgreSQL Server
set user "tpch" ;# PostgreSQL user
set password "tpch" ;# Password for the PostgreSQL user
set db "tpch" ;# Database containing the TPC Schema
set refresh_on "false" ;#First User does refresh function
set update_sets 1 ;#Number of sets of refresh function to complete
set trickle_refresh 1000 ;#time delay (ms) to trickle refresh function
set REFRESH_VERBOSE "false" ;#report refresh function activity
#EDITABLE OPTIONS##################################################
`;

const PRINTS = ['db', 'bm', 'dict', 'script', 'vuconf', 'vucreated', 'vustatus', 'datagen'] as const;
const PRINT_SEED: Record<(typeof PRINTS)[number], Json> = {
  db: SEED_DB,
  bm: { benchmark: 'TPC-C' },
  dict: SEED_DICT,
  script: err('No Script loaded: load with loadscript'),
  vuconf: SEED_VUCONF,
  vucreated: { 'Virtual Users created': '0' },
  vustatus: { 'Virtual User status': 'No Virtual Users found' },
  datagen: SEED_DATAGEN,
};

/** restchk.tcl's calls in order, with the replies the seed prints. */
const CALLS: Call[] = [
  { method: 'POST', url: '/clearscript', body: '' },
  ...PRINTS.map((p): Call => ({ method: 'GET', url: `/${p}`, seed: PRINT_SEED[p] })),
  ...PRINTS.map((p): Call => ({ method: 'GET', url: `/print?${p}`, seed: PRINT_SEED[p] })),
  { method: 'POST', url: '/diset', body: ' "dict": "tpcc", "key": "count_ware", "value": "800" ' },
  { method: 'POST', url: '/diset', body: ' "dict": "tpcc", "key": "tpcc_pass", "value": "new_password" ' },
  { method: 'POST', url: '/diset', body: ' "dict": "tpcc", "ke ', seed: err(`Not a valid JSON string: '{ "dict": "tpcc", "ke }'`) },
  { method: 'POST', url: '/diset', body: ' "dict": "tpcc" ', seed: err('Incorrect number of parameters to diset dict key value') },
  { method: 'POST', url: '/diset', body: ' "dict": "tpcc", "key": "tpcds_pass", "value": "new_password" ', seed: err('Dictionary "tpcc" for Oracle exists but key "tpcds_pass" doesn\'t') },
  { method: 'POST', url: '/diset', body: ' "dict": "tpcfg", "key": "tpcds_pass", "value": "new_password" ', seed: err('Dictionary "tpcfg" for Oracle does not exist') },
  { method: 'POST', url: '/diset', body: ' "dict": "tpcc", "key": "ora_driver", "value": "timed" ', seed: ok('Set driver script to timed, clearing Script, reload script to activate new setting') },
  { method: 'POST', url: '/diset', body: ' "dict": "tpcc", "key": "ora_driver", "value": "timid" ', seed: err('Error: Driver script must be either "test" or "timed"') },
  { method: 'POST', url: '/clearscript', body: '', seed: ok('Script cleared') },
  { method: 'POST', url: '/loadscript', body: '', seed: ok('script loaded') },
  { method: 'GET', url: '/print?script' },
  { method: 'GET', url: '/vustatus', seed: { 'Virtual User status': 'No Virtual Users found' } },
  { method: 'POST', url: '/dbset', body: ' "db": "mssqs" ', seed: err('Unknown prefix mssqs, choose one from ora mssqls db2 mysql pg redis') },
  { method: 'POST', url: '/dbset', body: ' "dx": "mssqls" ', seed: err('Invalid option to dbset key value') },
  { method: 'POST', url: '/dbset', body: ' "db": "pg" ', seed: ok('Database set to PostgreSQL') },
  { method: 'POST', url: '/dbset', body: ' "bm": "TPC-X" ', seed: err('Unknown benchmark TPC-X, choose one from TPC-C TPC-H') },
  { method: 'POST', url: '/dbset', body: ' "bm": "TPC-H" ', seed: ok('Benchmark set to TPC-H for PostgreSQL') },
  { method: 'POST', url: '/vuset', body: ' "vuxx": "109" ', seed: err('Invalid option to vuset key value') },
  { method: 'POST', url: '/vuset', body: ' "vu": "10" ', seed: ok('Virtual users set to 10') },
  { method: 'POST', url: '/dgset', body: ' "directory": "/home/oracle" ', seed: ok('Set directory to /tmp for data generation') },
  { method: 'POST', url: '/customscript', body: ` {"script": ${JSON.stringify(TESTSCRIPT)}}`, seed: ok('Set custom script') },
  { method: 'GET', url: '/print?script' },
  { method: 'POST', url: '/vuset', body: ' "vu": "5" ', seed: ok('Virtual users set to 5') },
  { method: 'POST', url: '/vucreate', body: '', seed: ok('6 Virtual Users Created with Monitor VU') },
  { method: 'POST', url: '/vucreate', body: '', seed: err('Virtual Users exist, destroy with vudestroy before creating') },
  { method: 'GET', url: '/vustatus', seed: { 'Virtual User status': '1 {WAIT IDLE} 2 {WAIT IDLE} 3 {WAIT IDLE} 4 {WAIT IDLE} 5 {WAIT IDLE} 6 {WAIT IDLE}' } },
  { method: 'POST', url: '/vudestroy', body: '', seed: ok('vudestroy success') },
  { method: 'GET', url: '/vustatus', seed: { 'Virtual User status': 'No Virtual Users found' } },
];

const SLEDGE_DB = { current: 'Oracle', database: 'tpcc', ora: 'Oracle', mssqls: 'MSSQLServer', db2: 'Db2', mysql: 'MySQL', pg: 'PostgreSQL', maria: 'MariaDB', sqlite: 'SQLite' };
const SLEDGE_DICT = {
  connection: { system_user: 'system', system_password: '********', instance: 'oracle', rac: '0' },
  tpcc: {
    count_ware: '1',
    num_vu: '1',
    tpcc_user: 'tpcc',
    tpcc_pass: '********',
    tpcc_def_tab: 'users',
    tpcc_ol_tab: 'users',
    tpcc_def_temp: 'temp',
    partition: 'false',
    hash_clusters: 'false',
    tpcc_tt_compat: 'false',
    checkpoint: 'false',
    total_iterations: '10000000',
    raiseerror: 'false',
    keyandthink: 'false',
    ora_driver: 'timed',
    rampup: '2',
    duration: '5',
    allwarehouse: 'false',
    ora_timeprofile: 'false',
    async_scale: 'false',
    async_client: '10',
    async_verbose: 'false',
    async_delay: '1000',
    connect_pool: 'false',
  },
};
/** The directory is the app's files root's datagen/ (set once the app exists), never the system temp directory. */
const SLEDGE_DATAGEN = { ...SEED_DATAGEN, directory: '' };
const WHY_DB = "Sledge's databases: MariaDB (HammerDB 4.x) and SQLite (Sledge's) added, Redis (dropped in HammerDB 4.0) gone; current and database name the session's database";
const WHY_DICT = "HammerDB 4.x's Oracle defaults (users tablespaces, 10000000 iterations, timed driver, ora_timeprofile, the async and connect-pool keys) rather than v3.2's; passwords print as ********";
const WHY_DATAGEN = 'datagen/ under the data directory (files stay under the files root), not the temp directory nor v3.2\'s mis-quoted "/tmp\\""';
const HOME_ORACLE_MISSING = !existsSync('/home/oracle');

/**
 * The deliberate differences: call index -> [Sledge's reply, reason]. Every
 * other printed reply equals the seed's.
 */
const DIFFERENCES: Record<number, [Json, string]> = {
  1: [SLEDGE_DB, WHY_DB],
  3: [SLEDGE_DICT, WHY_DICT],
  8: [SLEDGE_DATAGEN, WHY_DATAGEN],
  9: [SLEDGE_DB, WHY_DB],
  11: [SLEDGE_DICT, WHY_DICT],
  16: [SLEDGE_DATAGEN, WHY_DATAGEN],
  23: [ok('Value timed for tpcc:ora_driver is the same as existing value timed, no change made'), "HammerDB 4.x's default driver is timed (v3.2's was test), so the value is unchanged"],
  29: [err('Unknown prefix mssqs, choose one from ora mssqls db2 mysql pg maria sqlite'), WHY_DB],
  ...(HOME_ORACLE_MISSING
    ? { 36: [err('Files cannot be written to chosen directory you must create /home/oracle before generating data'), 'v3.2 answered success naming the old directory; HammerDB 4.x and Sledge refuse a directory that cannot be written'] as [Json, string] }
    : {}),
};

describe('HammerDB web-service check script (seed 000 restchk.tcl), whole', () => {
  let s: SledgeApp;
  beforeAll(async () => {
    const app = await makeApp();
    s = app;
    SLEDGE_DATAGEN.directory = join(app.dataDir, 'datagen');
  });
  afterAll(async () => {
    await s.app.close();
  });

  it('answers every printed call as the seed does, but for the listed differences', async () => {
    const printed: { i: number; url: string; seed: Json; got: Json }[] = [];
    for (const [i, c] of CALLS.entries()) {
      const r = await s.app.inject({ method: c.method, url: c.url, ...(c.body !== undefined ? { payload: c.body, headers: { 'content-type': 'application/x-www-form-urlencoded' } } : {}) });
      expect(r.statusCode, `${i} ${c.url}: ${r.body}`).toBe(200);
      if (c.seed !== undefined) printed.push({ i, url: c.url, seed: c.seed, got: JSON.parse(r.body) as Json });
    }
    expect(printed).toHaveLength(40);
    for (const p of printed) {
      const diff = DIFFERENCES[p.i];
      expect(p.got, `${p.i} ${p.url}${diff ? ` (deliberate: ${diff[1]})` : ''}`).toEqual(diff ? diff[0] : p.seed);
    }
    // Every listed difference is a real one, on a printed call.
    for (const i of Object.keys(DIFFERENCES).map(Number)) {
      const p = printed.find((x) => x.i === i);
      expect(p, `difference ${i} is a printed call`).toBeDefined();
      expect(p!.got).not.toEqual(p!.seed);
    }
    const equal = printed.filter((p) => !DIFFERENCES[p.i]).length;
    expect(equal).toBe(40 - Object.keys(DIFFERENCES).length);
  });
});
