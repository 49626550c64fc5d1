import { mkdtempSync, readFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultWarehouses } from '../src/hammerdb/verbs.js';
import { getJob, hammerdb, jobIds, sharedServer, uiJob, workloadConfig } from './hammerdb-harness.js';

/**
 * HammerDB Python CLI scripts in the style of HammerDB's sample scripts
 * (scripts/python/<db>/tprocc/*.py: build, timed run, a profile loop over VU
 * counts from os.environ, a result script using jobs), run unchanged by
 * `sledge hammerdb script.py` against a Sledge server, on SQLite. The verbs
 * are globals, as in `hammerdbcli py auto script.py`.
 */
const server = sharedServer();
const py = { name: 'script.py' };

const BUILD = `#!/bin/tclsh
# a HammerDB Python build script (sizes edited for the test)

print("SETTING CONFIGURATION")
dbset('db','sqlite')
dbset('bm','TPC-C')

vu = tclpy.eval('numberOfCPUs')
warehouse = int(tclpy.eval('numberOfWHs'))
print("SIZED", warehouse, "warehouses for", vu, "CPUs")
warehouse = 1
vu = 1
diset('tpcc','sqlite_count_ware',warehouse)
diset('tpcc','sqlite_num_vu',vu)
if (warehouse >= 200):
    diset('tpcc','sqlite_partition','true')
print('dict')
print("SCHEMA BUILD STARTED")
result = buildschema()
print("SCHEMA BUILD COMPLETED:", result)
exit()
`;

const RUN = `#!/bin/tclsh
import os
tmpdir = os.getenv('TMP')

print("SETTING CONFIGURATION")
dbset('db','sqlite')
dbset('bm','TPC-C')

diset('tpcc','sqlite_driver','timed')
diset('tpcc','sqlite_total_iterations','10000000')
diset('tpcc','sqlite_rampup','0')
diset('tpcc','sqlite_duration',0.05)
diset('tpcc','sqlite_timeprofile','true')

loadscript()
print("TEST STARTED")
vuset('vu','2')
vucreate()
tcstart()
tcstatus()
jobid = tclpy.eval('vurun')
vudestroy()
tcstop()
print("TEST COMPLETE")
file_path = os.path.join(tmpdir , "sqlite_tprocc" )
fd = open(file_path, "w")
fd.write(jobid)
fd.close()
exit()
`;

/** A result script in the style of HammerDB's: verbs' output sent to a file by redefining Tcl's puts, then printed. */
const RESULT = `import os
tmpdir = os.getenv('TMP')
outputfile = os.path.join(tmpdir, 'sqlite_tprocc')

to_file = r'''proc stdout { switch { file "" } } {
  if { $switch eq "off" } {
    rename puts __puts
    proc puts { args } [ string map [ list @FILE@ [ list $file ] ] {
      set fid [ open @FILE@ a+ ]
      __puts $fid [ lindex $args end ]
      close $fid
    } ]
  } else {
    rename puts {}
    rename __puts puts
  }
}'''

with open(outputfile) as f:
    jobid = f.readline().split("=")[1].strip()
report = outputfile + "_" + jobid + ".out"
tclpy.eval(to_file)
tclpy.eval('stdout off ' + report)
tclpy.eval('puts "TRANSACTION RESPONSE TIMES"')
jobs(jobid, 'timing')
tclpy.eval('puts "TRANSACTION COUNT"')
job(jobid, 'tcount')
tclpy.eval('puts "HAMMERDB RESULT"')
job(jobid, 'result')
tclpy.eval('stdout on')
with open(report) as f:
    print(f.read())
exit()
`;

/** HammerDB 6's run_profile.py shape: PROFILEID from the environment, a VU list, one run per count, job ids appended to a file. */
const PROFILE = `#!/usr/bin/env python3
import os
import sys

def fatal(msg: str) -> None:
    print(msg)
    sys.exit(1)

tmpdir = os.getenv("TMP")
print("SETTING CONFIGURATION")
if "PROFILEID" not in os.environ:
    fatal("ERROR: PROFILEID not set in environment (must be explicitly set to 0 or > 1)")
try:
    profileid = int(os.environ.get("PROFILEID", ""))
except ValueError:
    fatal(f"ERROR: PROFILEID must be an integer, got: '{os.environ['PROFILEID']}'")
print(f"Using PROFILEID = {profileid}")

dbset("db", "sqlite")
dbset("bm", "TPC-C")
try:
    jobs("profileid", str(profileid))
except Exception as e:
    fatal(f"ERROR: jobs profileid failed: {e}")
giset("commandline", "keepalive_margin", 1200)
diset("tpcc", "sqlite_driver", "timed")
diset("tpcc", "sqlite_rampup", 0)
diset("tpcc", "sqlite_duration", 0.05)
diset("tpcc", "sqlite_allwarehouse", "false")

print("TEST STARTED")
outfile = os.path.join(tmpdir, f"sqlite_tprocc_profile.{profileid}")
vu_list = [int(z) for z in os.environ["VU_LIST"].split(",")]
tcstart()
for z in vu_list:
    loadscript()
    vuset("vu", str(z))
    vuset("logtotemp", 1)
    vucreate()
    tcstatus()
    jobid = vurun()
    vudestroy()
    print(f"Writing to {outfile}")
    with open(outfile, "a", encoding="utf-8") as f:
        f.write(str(jobid) + "\\n")
tcstop()
print("PROFILE", profileid, "JOBS")
jobs("profile", profileid)
print("TEST COMPLETE")
sys.exit(0)
`;

describe('sledge hammerdb script.py on SQLite', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'sledge-hdb-py-'));

  it('a build script: tclpy.eval helpers, print(\'dict\') is the verb, buildschema() returns "Schema Build jobid=<id>"', async () => {
    const r = await hammerdb(BUILD, server.flags, false, { ...py, tmp });
    expect(r.code, r.err).toBe(0);
    const cpus = availableParallelism();
    expect(r.out).toContain(`SETTING CONFIGURATION\nDatabase set to SQLite\nBenchmark set to TPC-C for SQLite\nSIZED ${defaultWarehouses(cpus)} warehouses for ${cpus} CPUs\n`);
    expect(r.out).toMatch(/^Dictionary Settings for SQLite\nconnection \{\n sqlite_file {9}= tprocc\.sqlite\n/m);
    // hammerdbcli's buildschema: its implicit clearscript, the yes/no question it answers itself, its VU, then the VU's lines.
    expect(r.out).toContain(
      'SCHEMA BUILD STARTED\nScript cleared\nBuilding 1 Warehouses(s) with 1 Virtual User\nReady to create a 1 Warehouse SQLite TPROC-C schema\nin file tprocc.sqlite?\nEnter yes or no: replied yes\nVuser 1 created - WAIT IDLE\nVuser 1:RUNNING\n',
    );
    expect(r.out).toMatch(/^Vuser 1:TPCC SCHEMA COMPLETE\nVuser 1:FINISHED SUCCESS\nALL VIRTUAL USERS COMPLETE\nSCHEMA BUILD COMPLETED: Schema Build jobid=[0-9A-F]{24}\n$/m);
    const job = await getJob(server.url, jobIds(r.out, 'Schema Build')[0]!);
    expect([job.type, job.status]).toEqual(['build', 'completed']);
    expect(job.config.tprocc).toMatchObject({ warehouses: 1, buildVus: 1 });
  });

  it('a timed run: jobid = tclpy.eval(\'vurun\') waits for the run; the job is the one the UI creates; the result script reads it back with jobs()', async () => {
    const r = await hammerdb(RUN, server.flags, false, { ...py, tmp });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('Changed tpcc:sqlite_duration from 5 to 0.05 for SQLite\n');
    expect(r.out).toContain('Script loaded, Type "print script" to view\nTEST STARTED\nVuser 1 created MONITOR - WAIT IDLE\nVuser 2 created - WAIT IDLE\nVuser 3 created - WAIT IDLE\n3 Virtual Users Created with Monitor VU\n');
    expect(r.out).toMatch(/^Transaction Counter Started[^\n]*\nTransaction Counter thread running\n/m);
    expect(r.out).toMatch(/^Vuser 1:2 Active Virtual Users configured$/m);
    expect(r.out).toMatch(/^Vuser 1:TEST RESULT : System achieved [1-9]\d* NOPM from [1-9]\d* SQLite TPM$/m);
    expect(r.out).toMatch(/vudestroy success\nTransaction Counter Stopped[^\n]*\nTEST COMPLETE\n$/);
    const saved = readFileSync(join(tmp, 'sqlite_tprocc'), 'utf8');
    expect(saved).toMatch(/^Benchmark Run jobid=[0-9A-F]{24}$/);
    const id = saved.split('=')[1]!;
    const run = await getJob(server.url, id);
    expect(run.status).toBe('completed');
    const ui = await uiJob(server.url, { type: 'run', target: { engine: 'sqlite' }, tprocc: { vus: 2, rampup: 0, duration: 0.05, timeProfile: true } });
    expect(ui.status).toBe('completed');
    expect(workloadConfig(run)).toEqual(workloadConfig(ui));

    const res = await hammerdb(RESULT, server.flags, false, { name: 'result.py', tmp });
    expect(res.code, res.err).toBe(0);
    // Nothing of the verbs reached stdout before the file is printed: their lines went to the file through puts.
    expect(res.out.startsWith('TRANSACTION RESPONSE TIMES\n'), res.out).toBe(true);
    expect(res.out).toMatch(/^TRANSACTION COUNT\n/m);
    // HammerDB's default jobs format is JSON: the result list as huddle prints it.
    expect(res.out).toMatch(
      new RegExp(`^HAMMERDB RESULT\\n\\[\\n {2}"${id}",\\n {2}"\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d",\\n {2}"2 Active Virtual Users configured",\\n {2}"TEST RESULT : System achieved [1-9]\\d* NOPM from [1-9]\\d* SQLite TPM"\\n\\]\\n`, 'm'),
    );
    expect(readFileSync(join(tmp, `sqlite_tprocc_${id}.out`), 'utf8')).toContain('TRANSACTION RESPONSE TIMES\n');
  });

  it('a profile loop over VU counts from os.environ: one run per count in profile PROFILEID, job ids appended to a file', async () => {
    const r = await hammerdb(PROFILE, server.flags, false, { ...py, tmp, env: { PROFILEID: '12', VU_LIST: '1,2' } });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('SETTING CONFIGURATION\nUsing PROFILEID = 12\nDatabase set to SQLite\n');
    expect(r.out).toContain('Setting performance profile id to 12\n');
    expect(r.out).toMatch(/^Vuser 1:1 Active Virtual Users configured$/m);
    expect(r.out).toMatch(/^Vuser 1:2 Active Virtual Users configured$/m);
    expect(r.out.match(/^Vuser 1:TEST RESULT : System achieved [1-9]\d* NOPM from [1-9]\d* SQLite TPM$/gm)).toHaveLength(2);
    const ids = readFileSync(join(tmp, 'sqlite_tprocc_profile.12'), 'utf8').trim().split('\n').map((l) => /^Benchmark Run jobid=([0-9A-F]{24})$/.exec(l)?.[1]);
    expect(ids).toHaveLength(2);
    // jobs profile 12 in HammerDB's default JSON: both runs, in order, with their active VU counts.
    const profile = /PROFILE 12 JOBS\n(\{\n[\s\S]*\n\})\nTEST COMPLETE\n$/.exec(r.out)?.[1];
    expect(profile, r.out).toBeDefined();
    const entries = Object.entries(JSON.parse(profile!) as Record<string, Record<string, string>>);
    expect(entries.map(([id, e]) => [id, e['db'], e['bm'], e['activevu']])).toEqual([
      [ids[0], 'SQLite', 'TPC-C', '1'],
      [ids[1], 'SQLite', 'TPC-C', '2'],
    ]);
    const jobs = await Promise.all(ids.map((id) => getJob(server.url, id!)));
    expect(jobs.map((j) => [j.status, j.config.tprocc?.['vus'], j.profileId])).toEqual([
      ['completed', 1, 12],
      ['completed', 2, 12],
    ]);
  });

  it('the same profile script without PROFILEID stops at its own check: exit code 1, no run', async () => {
    const r = await hammerdb(PROFILE, server.flags, false, { ...py, tmp, env: { PROFILEID: undefined, VU_LIST: '1' } });
    expect(r.code).toBe(1);
    expect(r.out).toBe('SETTING CONFIGURATION\nERROR: PROFILEID not set in environment (must be explicitly set to 0 or > 1)\n');
  });

  it('TPROC-H: a build and a power run, vurun() returning the job id', async () => {
    const r = await hammerdb(
      `dbset('db','sqlite')
dbset('bm','TPC-H')
diset('tpch','sqlite_scale_fact','0.01')
diset('tpch','sqlite_num_tpch_threads',1)
diset('tpch','sqlite_total_querysets',1)
print(buildschema())
loadscript()
vuset('vu','1')
vucreate()
jobid = vurun()
vudestroy()
print("RESULT", jobid)
`,
      server.flags,
      false,
      { ...py, tmp },
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('Benchmark set to TPC-H for SQLite\nChanged tpch:sqlite_scale_fact from 1 to 0.01 for SQLite\n');
    expect(r.out).toMatch(/^Schema Build jobid=[0-9A-F]{24}$/m);
    expect(r.out).toMatch(/^Vuser 1:Completed 1 query set\(s\) in \d+ seconds$/m);
    expect(r.out).toMatch(/^RESULT Benchmark Run jobid=[0-9A-F]{24}$/m);
    const run = await getJob(server.url, jobIds(r.out, 'Benchmark Run')[0]!);
    expect([run.status, run.workload]).toEqual(['completed', 'tproch']);
  });
});
