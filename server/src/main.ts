/**
 * `pnpm start`: listen on HOST:PORT (default 127.0.0.1:8080) with data in
 * SLEDGE_DATA_DIR (default ./data); SLEDGE_FILES_ROOT confines job files
 * (SQLite targets, datagen directories); SLEDGE_SECRET_KEY (base64, 32 bytes)
 * encrypts saved secrets instead of <data>/secret.key; SLEDGE_GENERATOR and SLEDGE_VU_LOOP pick the
 * row generator and the VU loop (auto | native | typescript). The only place
 * that reads the environment.
 */
import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { buildApp } from './app.js';
import { startLocalAgent } from './plugins/local-agent.js';

const host = process.env['HOST'] ?? '127.0.0.1';
const port = Number(process.env['PORT'] ?? 8080);
const dataDir = resolve(process.env['SLEDGE_DATA_DIR'] ?? 'data');
const token = process.env['SLEDGE_TOKEN'] || undefined;
const generator = (process.env['SLEDGE_GENERATOR'] as 'auto' | 'native' | 'typescript' | undefined) ?? 'auto';
const vuLoop = process.env['SLEDGE_VU_LOOP'] || 'auto';

if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be an integer 0..65535 (got ${process.env['PORT']})`);
  process.exit(2);
}
if (vuLoop !== 'auto' && vuLoop !== 'native' && vuLoop !== 'typescript') {
  console.error(`SLEDGE_VU_LOOP must be auto, native or typescript (got ${vuLoop})`);
  process.exit(2);
}

const filesRoot = process.env['SLEDGE_FILES_ROOT'] ? resolve(process.env['SLEDGE_FILES_ROOT']) : undefined;
const secretKey = process.env['SLEDGE_SECRET_KEY'] || undefined;

let built: Awaited<ReturnType<typeof buildApp>>;
try {
  built = await buildApp({
    dataDir,
    logger: { level: process.env['LOG_LEVEL'] ?? 'info' },
    ...(token ? { token } : {}),
    ...(filesRoot ? { filesRoot } : {}),
    ...(secretKey ? { secretKey } : {}),
    generator,
    vuLoop,
  });
} catch (e) {
  // The data directory cannot be used (another server holds it, read-only, not a database ...): say why, no stack.
  console.error(`Sledge cannot start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
const { app } = built;

let closing = false;
let agent: ChildProcess | null = null;
const shutdown = async (sig: string) => {
  if (closing) return;
  closing = true;
  app.log.info(`${sig}: stopping jobs and closing`);
  const force = setTimeout(() => process.exit(1), 20_000);
  force.unref();
  agent?.kill('SIGTERM');
  await app.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

try {
  const address = await app.listen({ host, port });
  app.log.info(`Sledge listening on http://${host}:${port} (data in ${dataDir}); API docs at /docs`);
  if (process.env['SLEDGE_AGENT'] !== 'off') {
    agent = startLocalAgent(address, token, (m) => app.log.info(m));
  }
} catch (e) {
  console.error(`cannot listen on ${host}:${port}: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
