#!/usr/bin/env node
// `hammerdbcli`: HammerDB's command-line entry, served by Sledge's script runner
// (`sledge hammerdb`). Like HammerDB's own, it needs no server: it runs in-process
// unless --server URL (or $SLEDGE_SERVER) names one. Jobs are kept in one data
// directory wherever it is called from ($SLEDGE_DATA_DIR, else
// $XDG_DATA_HOME/sledge or ~/.local/share/sledge), as HammerDB keeps its job
// database in one place, so a result script finds the jobs an earlier run made.
//   hammerdbcli                      a hammerdb> prompt
//   hammerdbcli auto script.tcl      run a script
//   hammerdbcli py auto script.py    run a HammerDB Python script (in your python3)
//   hammerdbcli py                   a hammerdb>>> Python prompt (Python from stdin when not a terminal)
// Put on PATH by `pnpm install-cli` (scripts/install-cli.sh).
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const main = new URL('../dist/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('hammerdbcli: the Sledge CLI is not built yet: run "pnpm build" in the Sledge repository first\n');
  process.exit(2);
}
const args = process.argv.slice(2);
// HammerDB's language word: `hammerdbcli tcl|py|python [auto script]`.
const lang = ['tcl', 'py', 'python'].includes(args[0]?.toLowerCase()) ? args.shift().toLowerCase() : 'tcl';
if (lang !== 'tcl') args.push('--py');
const toServer = args.includes('--server') || args.some((a) => a.startsWith('--server=')) || !!process.env.SLEDGE_SERVER;
if (!toServer && !args.includes('--local')) args.push('--local');
if (!toServer && !args.includes('--data-dir') && !args.some((a) => a.startsWith('--data-dir=')) && !process.env.SLEDGE_DATA_DIR) {
  args.push('--data-dir', join(process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'sledge'));
}
process.argv = [process.argv[0], process.argv[1], 'hammerdb', ...args];
await import(main.href);
