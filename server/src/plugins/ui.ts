import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { wantsJobsViewer } from '../routes/hammerdb/index.js';

/**
 * Serve the built React dashboard. Client-side routes (/jobs/<id>, /compare,
 * /s/<token>, ...) fall back to index.html so permalinks open directly.
 */
export async function registerUi(app: FastifyInstance, dir: string): Promise<void> {
  await app.register(fastifyStatic, { root: dir, prefix: '/', wildcard: false, index: ['index.html'], maxAge: '1h', immutable: false });
  app.get('/*', { schema: { hide: true } }, (req, reply) => {
    const path = req.url.split('?')[0]!;
    if (path.startsWith('/api/') || path.startsWith('/docs')) {
      return reply.status(404).send({ error: { code: 'SLEDGE_E_NOT_FOUND', message: `no route GET ${path}` } });
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
  // GET /jobs is HammerDB's jobs viewer (routes/hammerdb); a browser asking for the page (HTML, no jobid) gets the dashboard.
  app.addHook('onRequest', async (req, reply) => {
    if (req.method === 'GET' && req.url.split('?')[0] === '/jobs' && !wantsJobsViewer(req.url, req.headers.accept)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
  });
}
