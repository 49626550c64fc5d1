import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { SledgeError } from '@sledge/protocol';

const OPEN = [/^\/api\/v1\/health$/, /^\/api\/v1\/shared\//];

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Optional API token. When configured, every /api/v1 request needs
 * `Authorization: Bearer <token>` (WebSocket: `?token=` since browsers cannot
 * set headers there). Health and share links stay open. The token never
 * reaches a log line: request logging prints paths without query strings.
 */
export function registerAuth(app: FastifyInstance, token: string | undefined): void {
  if (!token) return;
  app.addHook('onRequest', async (req) => {
    const path = req.url.split('?')[0]!;
    if (!path.startsWith('/api/v1') || OPEN.some((r) => r.test(path))) return;
    const header = req.headers.authorization;
    const given = header?.startsWith('Bearer ') ? header.slice(7) : (req.query as Record<string, string> | undefined)?.['token'];
    if (!given || !same(given, token)) {
      throw new SledgeError('SLEDGE_E_UNAUTHORIZED', 'this server needs an API token: send "Authorization: Bearer <token>"');
    }
  });
}
