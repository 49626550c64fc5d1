/**
 * `pnpm start [-- --insecure]`: listen on HOST:PORT (default 127.0.0.1:8080)
 * with data in SLEDGE_DATA_DIR (default ./data); SLEDGE_FILES_ROOT confines
 * job files (SQLite targets, datagen directories); SLEDGE_SECRET_KEY (base64,
 * 32 bytes) encrypts saved secrets instead of <data>/secret.key;
 * SLEDGE_GENERATOR and SLEDGE_VU_LOOP pick the row generator and the VU loop
 * (auto | native | typescript); SLEDGE_TOKEN sets the API token;
 * SLEDGE_ALLOWED_HOSTS (comma-separated) names the host names browsers may
 * use besides IPs, localhost and this machine's name. A HOST that is not
 * loopback needs SLEDGE_TOKEN, or --insecure / SLEDGE_INSECURE=1 to run open
 * anyway. SLEDGE_NATS_URL (with SLEDGE_NATS_TOKEN | _CREDS | _USER and
 * _PASSWORD, SLEDGE_NATS_TLS_CA/_CERT/_KEY, SLEDGE_NATS_PREFIX) joins replicas
 * over NATS (scale-out); a lost replica leaves the list after
 * SLEDGE_REPLICA_PRUNE_MS (default 10 minutes), which holds at most
 * SLEDGE_REPLICA_MAX replicas (default 1000). LOG_LEVEL and LOG_FORMAT (pretty | json) shape the log. The only
 * place that reads the environment.
 */
import { resolve } from 'node:path';
import { prettySink } from './plugins/log-format.js';
import { isLoopbackHost } from './plugins/origin.js';
import { natsSettingsFromEnv } from './replicas/nats-conn.js';

const host = process.env['HOST'] ?? '127.0.0.1';
const port = Number(process.env['PORT'] ?? 8080);
const dataDir = resolve(process.env['SLEDGE_DATA_DIR'] ?? 'data');
const token = process.env['SLEDGE_TOKEN'] || undefined;
const generator = (process.env['SLEDGE_GENERATOR'] as 'auto' | 'native' | 'typescript' | undefined) ?? 'auto';
const vuLoop = process.env['SLEDGE_VU_LOOP'] || 'auto';
const allowedHosts = (process.env['SLEDGE_ALLOWED_HOSTS'] ?? '')
  .split(',')
  .map((h) => h.trim())
  .filter((h) => h !== '');

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--insecure');
if (unknown.length) {
  console.error(`unknown argument ${unknown[0]}: the only flag is --insecure (settings come from the environment: HOST, PORT, SLEDGE_TOKEN, SLEDGE_DATA_DIR, ...)`);
  process.exit(2);
}
const insecure = args.includes('--insecure') || process.env['SLEDGE_INSECURE'] === '1';
const openToNetwork = !isLoopbackHost(host) && !token;

if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be an integer 0..65535 (got ${process.env['PORT']})`);
  process.exit(2);
}
if (vuLoop !== 'auto' && vuLoop !== 'native' && vuLoop !== 'typescript') {
  console.error(`SLEDGE_VU_LOOP must be auto, native or typescript (got ${vuLoop})`);
  process.exit(2);
}
if (openToNetwork && !insecure) {
  console.error(
    `refusing to start: HOST=${host} is reachable from other machines and SLEDGE_TOKEN is not set, so anyone who can reach it could run jobs, read saved configurations and drop databases. ` +
      'Set SLEDGE_TOKEN=<secret>, or listen on loopback (HOST=127.0.0.1), or pass --insecure (SLEDGE_INSECURE=1) to run without a token anyway.',
  );
  process.exit(2);
}

/** A positive integer setting of the environment, or undefined when unset (exits saying what to give when it is not one). */
function positiveInt(name: string): number | undefined {
  const v = process.env[name];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 1) {
    console.error(`${name} must be a positive integer (got ${v})`);
    process.exit(2);
  }
  return n;
}

const natsSettings = natsSettingsFromEnv(process.env);
const pruneMs = positiveInt('SLEDGE_REPLICA_PRUNE_MS');
const maxReplicas = positiveInt('SLEDGE_REPLICA_MAX');
const nats = natsSettings ? { ...natsSettings, ...(pruneMs ? { pruneMs } : {}), ...(maxReplicas ? { maxReplicas } : {}) } : null;
const filesRoot = process.env['SLEDGE_FILES_ROOT'] ? resolve(process.env['SLEDGE_FILES_ROOT']) : undefined;
const secretKey = process.env['SLEDGE_SECRET_KEY'] || undefined;

// The app (and all it imports) loads only once the settings are known good: a refusal above exits at once.
const { buildApp } = await import('./app.js');
let built: Awaited<ReturnType<typeof buildApp>>;
try {
  built = await buildApp({
    dataDir,
    // Human lines on a terminal, JSON otherwise (or always with LOG_FORMAT=json).
    logger: {
      level: process.env['LOG_LEVEL'] ?? 'info',
      ...((process.env['LOG_FORMAT'] ?? (process.stdout.isTTY ? 'pretty' : 'json')) === 'pretty' ? { stream: prettySink() } : {}),
    },
    ...(token ? { token } : {}),
    ...(filesRoot ? { filesRoot } : {}),
    ...(secretKey ? { secretKey } : {}),
    generator,
    vuLoop,
    ...(nats ? { nats } : {}),
    // A name to listen on is a name browsers use (IP literals always pass the Host check).
    allowedHosts: [...allowedHosts, host],
  });
} catch (e) {
  // The data directory cannot be used (another server holds it, read-only, not a database ...): say why, no stack.
  console.error(`Sledge cannot start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
const { app } = built;
if (openToNetwork) app.log.warn(`--insecure: listening on ${host} without SLEDGE_TOKEN; anyone who can reach this port can run jobs and drop databases`);

let closing = false;
const shutdown = async (sig: string) => {
  if (closing) return;
  closing = true;
  app.log.info(`${sig}: stopping jobs and closing`);
  const force = setTimeout(() => process.exit(1), 20_000);
  force.unref();
  await app.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

try {
  await app.listen({ host, port });
  app.log.info(`Sledge listening on http://${host}:${port} (data in ${dataDir}); API docs at /docs`);
  if (process.env['SLEDGE_AGENT'] !== 'off') {
    // The same agent metstart would start (app.ts); app.close() stops it.
    built.startAgent();
  }
} catch (e) {
  console.error(`cannot listen on ${host}:${port}: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
