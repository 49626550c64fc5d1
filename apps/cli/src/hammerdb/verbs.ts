import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { formatList, TclError, TclExit, type Interp } from '@sledge/tcl';
import type { SledgeClient } from '../client.js';
import { followJob } from './follow.js';
import { printOption } from './prints.js';
import { isError, jobIdOf, messageOf, withoutJobId, type Reply } from './reply.js';

/**
 * HammerDB's CLI verbs bound to a Sledge server's HammerDB command API.
 * Each verb: its route (one line), how many words it takes (with HammerDB's
 * usage message when the count is wrong), the body it sends, and what it
 * prints and returns (`show`).
 */
export interface VerbEnv {
  client: SledgeClient;
  out: (line: string) => void;
  /** Wait until every line given to out() is printed. */
  flush: () => Promise<void>;
  /** tcstart turned HammerDB's transaction counter on (tcstop off): runs followed meanwhile print its `<n> <database> tpm` lines. */
  counter?: { on: boolean };
}

/**
 * Lines printed the way HammerDB's putscli prints them: through the script's
 * current `puts` command, so a script that redefines puts (HammerDB's
 * result scripts send verb output to a file that way) gets the verbs' lines too.
 */
export function putsPrinter(interp: Interp, client: SledgeClient): VerbEnv {
  let queue: Promise<unknown> = Promise.resolve();
  let failure: unknown;
  return {
    client,
    counter: { on: false },
    out: (line) => {
      queue = queue.then(() => interp.call('puts', line)).catch((e: unknown) => (failure ??= e));
    },
    flush: async () => {
      await queue;
      const e = failure;
      failure = undefined;
      if (e !== undefined) throw e;
    },
  };
}

type Show = (r: Reply, env: VerbEnv, args: string[]) => Promise<string> | string;

interface Verb {
  route: string;
  argc?: [number, number];
  usage?: string;
  body?: (a: string[]) => unknown;
  show: Show;
}

/** Print the reply's message (success or error), return nothing: most verbs. */
const say: Show = (r, env) => {
  const m = messageOf(r);
  if (m !== undefined) env.out(m);
  return '';
};
/** Print only errors (vuset prints nothing when it works). */
const errorsOnly: Show = (r, env) => (isError(r) ? say(r, env, []) : '');
/** A fixed text on success, as HammerDB's CLI words it. */
const sayOnSuccess =
  (text: string): Show =>
  (r, env) => {
    env.out(isError(r) ? (messageOf(r) ?? '') : text);
    return '';
  };

/**
 * A job verb's reply as hammerdbcli prints it: buildschema and deleteschema
 * first clear the script ("Script cleared"), then say what they start, ask
 * their yes/no question and answer it themselves, then create their virtual
 * users (one line each) before those run.
 */
function printJobReply(r: Reply, m: string, env: VerbEnv): void {
  if (typeof r['clearscript'] === 'string') env.out(r['clearscript']);
  env.out(withoutJobId(m));
  const confirm = r['confirm'];
  if (Array.isArray(confirm)) {
    for (const l of confirm) env.out(String(l));
    env.out('Enter yes or no: replied yes');
  }
  if (typeof r['clearscript'] !== 'string') return;
  const made = /with (\d+) Virtual Users?(, .*Monitor VU)?/.exec(m);
  for (let i = 1; i <= Number(made?.[1] ?? 0); i++) env.out(`Vuser ${i} created${made?.[2] && i === 1 ? ' MONITOR' : ''} - WAIT IDLE`);
}

/** A verb that starts a job: print its reply, follow the job, return "<what> jobid=<id>". */
const job =
  (what: string | undefined, printReply: boolean): Show =>
  async (r, env) => {
    const m = messageOf(r) ?? '';
    const id = jobIdOf(m);
    if (isError(r) || !id) {
      env.out(m);
      return what === 'Benchmark Run' ? 'Benchmark Run (No jobid)' : '';
    }
    if (printReply) printJobReply(r, m, env);
    await followJob(env.client, id, env.out, { counter: env.counter?.on === true });
    return what ? `${what} jobid=${id}` : '';
  };

/** vucreate: HammerDB prints one line per virtual user, then `Logging activated to <file>` (vuset logtotemp 1), then the count. */
const vucreate: Show = (r, env) => {
  const lines = (messageOf(r) ?? '').split('\n');
  const count = lines.pop()!;
  const made = /^(\d+) Virtual Users Created( with Monitor VU)?/.exec(count);
  if (!isError(r) && made) for (let i = 1; i <= Number(made[1]); i++) env.out(`Vuser ${i} created${made[2] && i === 1 ? ' MONITOR' : ''} - WAIT IDLE`);
  for (const l of lines) env.out(l);
  env.out(count);
  return '';
};

/** tcstart/tcstop: print the reply and switch the counter lines of followed runs on or off. */
const counter =
  (on: boolean): Show =>
  (r, env) => {
    if (!isError(r) && env.counter) env.counter.on = on;
    return say(r, env, []);
  };

/** jobs ...: the server runs HammerDB's jobs command; print its lines, return its value. */
const jobs: Show = (r, env) => {
  if (isError(r)) return say(r, env, []);
  for (const line of (r['output'] as string[] | undefined) ?? []) env.out(line);
  return String(r['value'] ?? '');
};

const pair = (a: string[]) => ({ [a[0]!]: a[1]! });
const triple = (a: string[]) => ({ dict: a[0], key: a[1], value: a[2] });
const pdictUsage = (v: string, opts: string) => `Usage: ${v} [${opts}] value`;

export const VERBS: Record<string, Verb> = {
  dbset: { route: 'POST /dbset', argc: [2, 2], usage: 'Usage: dbset [db|bm] value', body: pair, show: say },
  diset: { route: 'POST /diset', argc: [3, 3], usage: 'Error: Invalid number of arguments\nUsage: diset dict key value', body: triple, show: say },
  giset: { route: 'POST /giset', argc: [3, 3], usage: 'Error: Invalid number of arguments\nUsage: giset dict key value', body: triple, show: say },
  vuset: { route: 'POST /vuset', argc: [2, 2], usage: pdictUsage('vuset', 'vu|delay|repeat|iterations|showoutput|logtotemp|unique|nobuff|timestamps'), body: pair, show: errorsOnly },
  tcset: { route: 'POST /tcset', argc: [2, 2], usage: pdictUsage('tcset', 'refreshrate|logtotemp|unique|timestamps'), body: pair, show: say },
  dgset: { route: 'POST /dgset', argc: [2, 2], usage: 'dgset - Usage: dgset [vu|scale_fact|warehouse|directory]', body: pair, show: say },
  metset: { route: 'POST /metset', argc: [2, 2], usage: pdictUsage('metset', 'agent_hostname|agent_id'), body: pair, show: say },
  loadscript: { route: 'POST /loadscript', show: sayOnSuccess('Script loaded, Type "print script" to view') },
  clearscript: { route: 'POST /clearscript', show: say },
  vucreate: { route: 'POST /vucreate', show: vucreate },
  vudestroy: { route: 'POST /vudestroy', show: say },
  vurun: { route: 'POST /vurun', show: job('Benchmark Run', false) },
  buildschema: { route: 'POST /buildschema', show: job('Schema Build', true) },
  checkschema: { route: 'POST /checkschema', show: job('Schema Check', true) },
  deleteschema: { route: 'POST /deleteschema', show: job('Schema Delete', true) },
  datagenrun: { route: 'POST /datagenrun', show: job(undefined, true) },
  tcstart: { route: 'POST /tcstart', show: counter(true) },
  tcstop: { route: 'POST /tcstop', show: counter(false) },
  tcstatus: { route: 'GET /tcstatus', show: say },
  metstart: { route: 'POST /metstart', show: say },
  metstop: { route: 'POST /metstop', show: say },
  metstatus: { route: 'GET /metstatus', show: say },
  steprun: { route: 'POST /steprun', show: job(undefined, true) },
  switchmode: { route: 'POST /switchmode', argc: [0, 3], usage: 'Usage: switchmode [mode] ?PrimaryID? ?PrimaryHostname?', body: (a) => ({ mode: a[0] ?? 'current', ...(a[1] ? { id: a[1] } : {}), ...(a[2] ? { host: a[2] } : {}) }), show: say },
  custommonitor: { route: 'POST /custommonitor', argc: [1, 1], usage: 'Usage: custommonitor test|timed', body: (a) => ({ type: a[0] }), show: say },
  savescript: { route: 'POST /savescript', argc: [1, 1], usage: 'Usage: savescript filename', body: (a) => ({ file: a[0] }), show: say },
  jobs: { route: 'POST /jobscmd', argc: [0, 16], body: (a) => ({ args: a }), show: jobs },
  vucomplete: { route: 'GET /vucomplete', argc: [0, 0], show: (r) => String(r['Virtual Users complete'] ?? 'false') },
  librarycheck: { route: 'GET /librarycheck', argc: [0, 0], show: (r, env) => librarycheck(r, env) },
};

function librarycheck(r: Reply, env: VerbEnv): string | Promise<string> {
  if (!Array.isArray(r)) return say(r, env, []);
  for (const line of r as string[]) env.out(line.charAt(0).toUpperCase() + line.slice(1));
  return '';
}

/** HammerDB verbs with no Sledge counterpart: they stop the script saying why. */
const UNSUPPORTED: Record<string, string> = {
  wsport: "Sledge's server is the web service (pnpm start; HOST and PORT)",
  wsstart: "Sledge's server is the web service (pnpm start; HOST and PORT)",
  wsstop: "Sledge's server is the web service (pnpm start; HOST and PORT)",
  wsstatus: "Sledge's server is the web service (pnpm start; HOST and PORT)",
  distributescript: 'Sledge has no replica processes: steprun runs the steps as one job',
  pipes: 'HammerDB v6 CI pipelines (clone, build, install a database) have no Sledge counterpart',
  pipe: 'HammerDB v6 CI pipelines have no Sledge counterpart',
};
for (const v of ['ci', 'cifix', 'cilisten', 'cipush', 'cireset', 'ciset', 'cistatus', 'cistop', 'citmp']) UNSUPPORTED[v] = 'HammerDB v6 CI pipelines have no Sledge counterpart';

async function callVerb(name: string, verb: Verb, args: string[], env: VerbEnv): Promise<string> {
  const words = args.slice(1);
  const [min, max] = verb.argc ?? [0, 0];
  if (words.length < min || words.length > max) {
    if (!verb.usage) throw new TclError(`wrong # args: should be "${name}"`);
    for (const l of verb.usage.split('\n')) env.out(l);
    return '';
  }
  const [method, path] = verb.route.split(' ') as ['GET' | 'POST', string];
  const reply = (await env.client.hammerdb(method, path, verb.body ? verb.body(words) : undefined)) as Reply;
  return verb.show(reply, env, words);
}

/** How many virtual users the session has (print vucreated). */
async function vusCreated(env: VerbEnv): Promise<number> {
  const r = (await env.client.hammerdb('GET', '/vucreated')) as Reply;
  return Number((r as Record<string, unknown>)['Virtual Users created'] ?? 0) || 0;
}

/** vucreate as HammerDB v5/v6's CLI does it: with no script loaded, loadscript first (it prints), then create. */
async function vucreateLoading(args: string[], env: VerbEnv): Promise<string> {
  if (args.length !== 1) return callVerb('vucreate', VERBS['vucreate']!, args, env);
  const r = (await env.client.hammerdb('POST', '/vucreate')) as Reply;
  if (!isError(r) || !/^No Script loaded/.test(messageOf(r) ?? '')) return VERBS['vucreate']!.show(r, env, []);
  await callVerb('loadscript', VERBS['loadscript']!, ['loadscript'], env);
  return callVerb('vucreate', VERBS['vucreate']!, args, env);
}

/** Register every verb, print, customscript, the CLI helpers, and the unsupported verbs' refusals. */
/**
 * HammerDB 6's numberOfWHs: 8 warehouses per CPU, rounded up to a multiple of
 * 10 when that is at most 100, and at most `limit` (HammerDB's default
 * warehouse_limit, 4000).
 */
export function defaultWarehouses(cpus: number, limit = 4000): number {
  if (!Number.isInteger(cpus) || cpus < 1) throw new TclError(`numberOfWHs: the CPU count must be a positive integer, got ${cpus}`);
  let wh = cpus * 8;
  if (wh <= 100) wh = Math.ceil(wh / 10) * 10;
  return Math.min(wh, limit);
}

export function registerVerbs(interp: Interp, env: VerbEnv): void {
  const register = (name: string, fn: (args: string[]) => string | Promise<string>) =>
    interp.register(name, async (args) => {
      try {
        return await fn(args);
      } finally {
        await env.flush();
      }
    });
  for (const [name, verb] of Object.entries(VERBS)) register(name, (args) => callVerb(name, verb, args, env));
  register('job', (args) => callVerb('jobs', VERBS['jobs']!, args, env));
  // HammerDB v5/v6's CLI: vucreate loads the script when none is loaded, and vurun creates the virtual users when none exist.
  register('vucreate', (args) => vucreateLoading(args, env));
  register('vurun', async (args) => {
    if (args.length === 1 && (await vusCreated(env)) === 0) await vucreateLoading(['vucreate'], env);
    return callVerb('vurun', VERBS['vurun']!, args, env);
  });
  register('print', async (args) => {
    if (args.length !== 2) {
      env.out('Usage: print [db|bm|dict|generic|script|vuconf|vucreated|vustatus|vucomplete|datagen|tcconf]');
      return '';
    }
    const { lines, value } = await printOption(env.client, args[1]!);
    lines.forEach((l) => env.out(l));
    return value;
  });
  register('vustatus', async () => {
    (await printOption(env.client, 'vustatus')).lines.forEach((l) => env.out(l));
    return '';
  });
  register('customscript', async (args) => {
    if (args.length !== 2 || !args[1]!.endsWith('.tcl')) {
      env.out('Usage: customscript scriptname.tcl');
      return '';
    }
    let script: string;
    try {
      script = readFileSync(args[1]!, 'utf8');
    } catch (e) {
      env.out(`File [${args[1]}] is not readable. (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
      return '';
    }
    return say((await env.client.hammerdb('POST', '/customscript', { script })) as Reply, env, []);
  });
  const noArgs = (name: string, fn: () => string) =>
    register(name, (args) => {
      if (args.length !== 1) throw new TclError(`wrong # args: should be "${name}"`);
      return fn();
    });
  noArgs('numberOfCPUs', () => String(availableParallelism()));
  // HammerDB 6's v6 build scripts size the schema with it: `set warehouse [ numberOfWHs ]`.
  noArgs('numberOfWHs', () => String(defaultWarehouses(availableParallelism())));
  // HammerDB v5+: vurun and buildschema wait for the virtual users themselves, so these only warn.
  for (const name of ['runtimer', 'waittocomplete']) register(name, () => (env.out(`${name} command has been deprecated and is not required for version v6.0`), ''));
  register('quit', () => {
    env.out('Shutting down HammerDB CLI');
    throw new TclExit(0);
  });
  register('help', () => {
    env.out(`HammerDB CLI verbs (sledge hammerdb): ${formatList([...Object.keys(VERBS), 'print', 'vustatus', 'customscript', 'numberOfCPUs', 'numberOfWHs', 'runtimer', 'waittocomplete', 'quit'].sort())}`);
    return '';
  });
  for (const [name, why] of Object.entries(UNSUPPORTED)) {
    interp.register(name, () => {
      throw new TclError(`"${name}" is a HammerDB command that sledge hammerdb does not support: ${why}`);
    });
  }
}
