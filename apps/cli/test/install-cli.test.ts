import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * `pnpm install-cli` (scripts/install-cli.sh) puts `sledge` and `hammerdbcli`
 * on PATH; `hammerdbcli auto script.tcl` then runs a HammerDB script from any
 * directory with no server (in-process), as HammerDB's .sh drivers call it, and
 * keeps its jobs in one data directory ($XDG_DATA_HOME/sledge here);
 * `hammerdbcli py auto script.py` runs HammerDB's Python scripts the same way.
 */
const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const BUILD = `puts "SETTING CONFIGURATION"
dbset db sqlite
dbset bm TPC-C
diset tpcc sqlite_count_ware 1
diset tpcc sqlite_num_vu 1
puts "SCHEMA BUILD STARTED"
set result [ buildschema ]
puts "SCHEMA BUILD COMPLETED: $result"
set of [ open jobid.txt w ]
puts $of [ lindex [ split $result = ] 1 ]
close $of
`;

// A later call, another process: the build job's status from the shared job store.
const JOBS = `set fd [ open jobid.txt r ]
set id [ string trim [ read $fd ] ]
close $fd
puts "STATUS OF $id"
jobs $id status
`;

describe('install-cli and hammerdbcli', () => {
  const root = mkdtempSync(join(tmpdir(), 'sledge-install-cli-'));
  const bin = join(root, 'bin');
  const xdg = join(root, 'xdg');
  const scripts = join(root, 'scripts');
  const env = { ...process.env, PATH: `${bin}:${process.env['PATH']}`, XDG_DATA_HOME: xdg, SLEDGE_BIN_DIR: bin, SLEDGE_DATA_DIR: '', SLEDGE_SERVER: '' };
  delete (env as Record<string, string | undefined>)['SLEDGE_DATA_DIR'];
  delete (env as Record<string, string | undefined>)['SLEDGE_SERVER'];

  it('installs two wrappers into SLEDGE_BIN_DIR that run this checkout with this node', () => {
    const r = spawnSync('bash', [join(repo, 'scripts', 'install-cli.sh')], { env, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`installed ${bin}/sledge`);
    expect(r.stdout).toContain(`installed ${bin}/hammerdbcli`);
    const wrapper = readFileSync(join(bin, 'hammerdbcli'), 'utf8');
    expect(wrapper).toContain(`${repo}/apps/cli/bin/hammerdbcli.js`);
    const help = spawnSync('sledge', ['help'], { env, encoding: 'utf8', cwd: root });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('hammerdb [auto]');
  });

  it("a HammerDB .sh driver calls hammerdbcli auto from its own directory: the build runs in-process, jobs kept in the user's data directory", () => {
    mkdirSync(scripts, { recursive: true });
    writeFileSync(join(scripts, 'build.tcl'), BUILD);
    writeFileSync(join(scripts, 'jobs.tcl'), JOBS);
    writeFileSync(join(scripts, 'build.sh'), '#!/bin/bash\ncd "$(dirname "$0")"\nhammerdbcli auto build.tcl\nhammerdbcli auto jobs.tcl\n');
    const r = spawnSync('bash', [join(scripts, 'build.sh')], { env, encoding: 'utf8', cwd: '/' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('Database set to SQLite');
    const id = /SCHEMA BUILD COMPLETED: Schema Build jobid=([0-9A-F]{24})\n/.exec(r.stdout)?.[1];
    expect(id, r.stdout).toBeDefined();
    // The second call (a new process) finds the first one's job: one data directory wherever it is called from.
    // jobs prints JSON, HammerDB's default jobs format.
    expect(r.stdout).toContain(`STATUS OF ${id}\n[\n  "0",\n  "Vuser 1:RUNNING",\n`);
    expect(r.stdout).toContain('  "0",\n  "ALL VIRTUAL USERS COMPLETE"\n]\n');
    expect(existsSync(join(xdg, 'sledge', 'tprocc.sqlite'))).toBe(true);
    // Nothing written beside the scripts but the script's own file (no ./data).
    expect(readdirSync(scripts).sort()).toEqual(['build.sh', 'build.tcl', 'jobid.txt', 'jobs.tcl']);
  }, 180_000);

  it("a HammerDB Python .sh driver: hammerdbcli py auto script.py runs in the user's python3, and finds the Tcl build's job in the shared data directory", () => {
    writeFileSync(
      join(scripts, 'jobs.py'),
      `import os
with open('jobid.txt') as f:
    jobid = f.read().strip()
jobs('format', 'text')
print("STATUS OF", jobid)
jobs(jobid, 'status')
print("CPUS", int(tclpy.eval('numberOfCPUs')) > 0)
exit()
`,
    );
    writeFileSync(join(scripts, 'jobs_py.sh'), '#!/bin/bash\ncd "$(dirname "$0")"\nhammerdbcli py auto ./jobs.py\n');
    const r = spawnSync('bash', [join(scripts, 'jobs_py.sh')], { env, encoding: 'utf8', cwd: '/' });
    expect(r.status, r.stderr).toBe(0);
    const id = readFileSync(join(scripts, 'jobid.txt'), 'utf8').trim();
    // After jobs format text: HammerDB's text lines.
    expect(r.stdout).toContain(`Setting jobs output format to text\nSTATUS OF ${id}\nVirtual User 0: Vuser 1:RUNNING\n`);
    expect(r.stdout).toMatch(/Virtual User 0: ALL VIRTUAL USERS COMPLETE\nCPUS True\n$/);
  }, 120_000);

  it('hammerdbcli py reads Python from stdin; hammerdbcli py auto refuses a .tcl script as HammerDB does', () => {
    const r = spawnSync('hammerdbcli', ['python'], { env, encoding: 'utf8', cwd: root, input: "dbset('db','pg')\nprint('db' == 'db')\n" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('Database set to PostgreSQL\nTrue\n');
    const wrong = spawnSync('hammerdbcli', ['py', 'auto', join(scripts, 'build.tcl')], { env, encoding: 'utf8', cwd: root });
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('incorrect file extension for python');
  }, 120_000);
});
