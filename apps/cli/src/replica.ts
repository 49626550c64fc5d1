/**
 * `sledge replica`: a process that joins a primary over NATS and runs the
 * VUs the primary places on it. Flags, or the same settings from the
 * environment (containers): SLEDGE_NATS_URL, SLEDGE_REPLICA_NAME,
 * SLEDGE_NATS_TOKEN | SLEDGE_NATS_CREDS | SLEDGE_NATS_USER + SLEDGE_NATS_PASSWORD,
 * SLEDGE_NATS_TLS_CA / _CERT / _KEY, SLEDGE_NATS_PREFIX. Runs until SIGINT or
 * SIGTERM (its VUs are stopped and their last frames published first).
 */
import { parseArgs } from 'node:util';
import { SledgeError } from '@sledge/protocol';

export const REPLICA_USAGE = `usage: sledge replica --nats URL [--name NAME] [--token T | --creds FILE | --user U --password P]
                      [--tls-ca FILE --tls-cert FILE --tls-key FILE] [--prefix P] [--primary-loss-ms MS]

Joins a Sledge server (the primary, started with SLEDGE_NATS_URL) over NATS with JetStream and runs the
virtual users of the runs placed on it (sledge run --replicas all). Every flag has an environment form:
SLEDGE_NATS_URL, SLEDGE_REPLICA_NAME (default: the host name), SLEDGE_NATS_TOKEN, SLEDGE_NATS_CREDS,
SLEDGE_NATS_USER, SLEDGE_NATS_PASSWORD, SLEDGE_NATS_TLS_CA, SLEDGE_NATS_TLS_CERT, SLEDGE_NATS_TLS_KEY,
SLEDGE_NATS_PREFIX (default sledge; the primary's). The target's credentials reach a replica only over an
authenticated NATS connection, sealed to this replica's key (a new one each start). A name held by another live
replica is refused: this replica then exits with an error (code 2).`;

const FLAGS = {
  nats: { type: 'string' },
  name: { type: 'string' },
  token: { type: 'string' },
  creds: { type: 'string' },
  user: { type: 'string' },
  password: { type: 'string' },
  'tls-ca': { type: 'string' },
  'tls-cert': { type: 'string' },
  'tls-key': { type: 'string' },
  prefix: { type: 'string' },
  'primary-loss-ms': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function replicaCommand(argv: string[]): Promise<number> {
  const { values: f } = parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false });
  if (f.help) {
    process.stdout.write(REPLICA_USAGE + '\n');
    return 0;
  }
  const env = process.env;
  const pick = (flag: string | undefined, name: string) => flag ?? (env[name] || undefined);
  const url = pick(f.nats, 'SLEDGE_NATS_URL');
  if (!url) throw new SledgeError('SLEDGE_E_VALIDATION', 'sledge replica needs the NATS server: --nats nats://host:4222 (or SLEDGE_NATS_URL)', { field: '--nats' });
  const lossMs = f['primary-loss-ms'] === undefined ? undefined : Number(f['primary-loss-ms']);
  if (lossMs !== undefined && !(Number.isInteger(lossMs) && lossMs >= 1000)) throw new SledgeError('SLEDGE_E_VALIDATION', '--primary-loss-ms must be an integer of at least 1000', { field: '--primary-loss-ms' });
  const nats: Record<string, string> = { url };
  const set = (key: string, v: string | undefined) => {
    if (v) nats[key] = v;
  };
  set('token', pick(f.token, 'SLEDGE_NATS_TOKEN'));
  set('creds', pick(f.creds, 'SLEDGE_NATS_CREDS'));
  set('user', pick(f.user, 'SLEDGE_NATS_USER'));
  set('password', pick(f.password, 'SLEDGE_NATS_PASSWORD'));
  set('tlsCa', pick(f['tls-ca'], 'SLEDGE_NATS_TLS_CA'));
  set('tlsCert', pick(f['tls-cert'], 'SLEDGE_NATS_TLS_CERT'));
  set('tlsKey', pick(f['tls-key'], 'SLEDGE_NATS_TLS_KEY'));
  set('prefix', pick(f.prefix, 'SLEDGE_NATS_PREFIX'));
  const name = pick(f.name, 'SLEDGE_REPLICA_NAME');
  // The server's one-file bundle of the replica (server/dist/replica.bundle.js, scripts/bundle-process.mjs).
  const { Replica } = await import('@sledge/server/replica.bundle');
  const log = (m: string) => process.stderr.write(`${new Date().toISOString()} ${m}\n`);
  const replica = await Replica.start({ nats: nats as { url: string }, ...(name ? { name } : {}), log, ...(lossMs ? { primaryLossMs: lossMs } : {}) });
  const stop = new Promise<void>((resolve) => {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => resolve());
  });
  const ended = await Promise.race([stop, replica.closed()]);
  log(`replica ${replica.name} leaving`);
  await replica.close();
  // A primary refused it (its name is held by another live replica): say so, exit non-zero.
  if (SledgeError.is(ended)) throw ended;
  return 0;
}
