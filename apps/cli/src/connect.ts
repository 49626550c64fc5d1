import { SledgeClient } from './client.js';

/** Where the CLI's commands go: --server (or $SLEDGE_SERVER) with --token, or --local. */
export interface ConnectFlags {
  server?: string | boolean | undefined;
  local?: string | boolean | undefined;
  token?: string | boolean | undefined;
  'data-dir'?: string | boolean | undefined;
}

/**
 * A client for a running server, or (--local) for the server app started
 * in-process on a loopback port; close() stops it.
 */
export async function connect(o: ConnectFlags): Promise<{ client: SledgeClient; close: () => Promise<void> }> {
  const token = (o.token as string | undefined) ?? process.env['SLEDGE_TOKEN'];
  if (!o.local) {
    const base = (o.server as string | undefined) ?? process.env['SLEDGE_SERVER'] ?? 'http://127.0.0.1:8080';
    return { client: new SledgeClient(base, token), close: async () => undefined };
  }
  // The server's one-file bundle (server/dist/app.bundle.js, scripts/bundle-process.mjs): the same
  // app as '@sledge/server', in a fraction of the module loader's CPU.
  const { buildApp } = await import('@sledge/server/app.bundle');
  const { resolve } = await import('node:path');
  const vuLoop = process.env['SLEDGE_VU_LOOP'];
  const generator = process.env['SLEDGE_GENERATOR'];
  const { app } = await buildApp({
    dataDir: resolve((o['data-dir'] as string | undefined) ?? process.env['SLEDGE_DATA_DIR'] ?? 'data'),
    // The same key and files root as a server on this data directory would use.
    ...(process.env['SLEDGE_SECRET_KEY'] ? { secretKey: process.env['SLEDGE_SECRET_KEY'] } : {}),
    ...(process.env['SLEDGE_FILES_ROOT'] ? { filesRoot: resolve(process.env['SLEDGE_FILES_ROOT']) } : {}),
    logger: false,
    // Only this CLI asks the in-process server anything: no dashboard, no /docs.
    uiDir: null,
    docs: false,
    ...(vuLoop === 'native' || vuLoop === 'typescript' ? { vuLoop } : {}),
    ...(generator === 'native' || generator === 'typescript' ? { generator } : {}),
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { client: new SledgeClient(address, undefined, { loopback: true }), close: () => app.close() };
}

