import os from 'node:os';

export interface AgentArgs {
  server?: string;
  label: string;
  intervalMs: number;
  token?: string;
  once: boolean;
  json: boolean;
  help: boolean;
  /** Exit when standard input closes: the agent a server starts for itself ends with that server, however it ends. */
  withParent: boolean;
}

export const USAGE = `usage: sledge-agent --server ws://HOST:8080 [--label NAME] [--interval-ms 1000] [--token T]
       sledge-agent --once [--json] [--interval-ms 1000]

Streams per-core CPU (usr sys iowait irq soft steal idle %) and disk IOPS/MB/s
from /proc to a Sledge server's /api/v1/agent WebSocket, reconnecting forever.
  --server URL       the Sledge server (ws://, wss://, http:// or https://)
  --label NAME       how the server lists this agent (default: the host name)
  --interval-ms N    sampling interval, 100..60000 ms (default 1000)
  --token T          API token of the server (default: $SLEDGE_TOKEN)
  --once             print one sample taken over one interval and exit
  --json             with --once: print the sample as JSON
  --with-parent      exit when standard input closes (the server that started
                     this agent ended, even when killed)`;

export class ArgsError extends Error {}

/** Parse the command line (argv without node and the script). */
export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): AgentArgs {
  const a: AgentArgs = { label: os.hostname(), intervalMs: 1000, once: false, json: false, help: false, withParent: false };
  const token = env['SLEDGE_TOKEN'];
  if (token) a.token = token;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new ArgsError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--server':
        a.server = value();
        break;
      case '--label':
        a.label = value();
        break;
      case '--interval-ms': {
        const v = value();
        const n = Number(v);
        if (!Number.isInteger(n) || n < 100 || n > 60_000) throw new ArgsError(`--interval-ms must be an integer from 100 to 60000, got ${v}`);
        a.intervalMs = n;
        break;
      }
      case '--token':
        a.token = value();
        break;
      case '--once':
        a.once = true;
        break;
      case '--json':
        a.json = true;
        break;
      case '--with-parent':
        a.withParent = true;
        break;
      case '--help':
      case '-h':
        a.help = true;
        break;
      default:
        throw new ArgsError(`unknown argument ${arg}`);
    }
  }
  if (!a.help && !a.once && !a.server) throw new ArgsError('--server is required (or --once to print one sample)');
  if (a.json && !a.once) throw new ArgsError('--json goes with --once');
  return a;
}
