import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { refuse } from './route-config.js';

/**
 * Routes declared elsewhere that answer without the token, by route pattern
 * (the pattern the router matched, never the raw URL, so an encoded path such
 * as /%61pi/v1/jobs cannot dodge the guard). Health, share links (a share
 * token reads its one job and nothing else), the dashboard's index.html
 * fallback and the OpenAPI page's shell hold no data.
 */
const PUBLIC_ROUTES = new Set(['/api/v1/health', '/api/v1/shared/:token', '/*', '/docs', '/docs/', '/docs/static/*', '/docs/static/index.html', '/docs/static/swagger-initializer.js']);

/** Download links, which the browser fetches itself: the token may be in the query. */
const QUERY_TOKEN_ROUTES = new Set(['/api/v1/jobs/:id/export']);

const MESSAGE = 'this server needs an API token: send "Authorization: Bearer <token>"';

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function isPublic(req: FastifyRequest): boolean {
  const route = req.routeOptions;
  if (route.url === undefined) return false; // no route matched: the 404 waits for the token too
  // @fastify/static marks the routes it creates for files (the dashboard's build, the docs' assets) with rootPath.
  return route.config?.public === true || PUBLIC_ROUTES.has(route.url) || (route.config as { rootPath?: unknown } | undefined)?.rootPath !== undefined;
}

function givenToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (header !== undefined) return header.startsWith('Bearer ') ? header.slice(7) : undefined;
  const route = req.routeOptions;
  if (route.config?.tokenInQuery !== true && !QUERY_TOKEN_ROUTES.has(route.url ?? '')) return undefined;
  const q = (req.query as Record<string, unknown> | undefined)?.['token'];
  return typeof q === 'string' ? q : undefined;
}

/**
 * Optional API token, guarded by route: with a token configured every route
 * needs it (REST, the WebSockets, /metrics, the HammerDB API and jobs viewer,
 * the OpenAPI document) unless it is declared public (config.public or the
 * list above). The token comes as `Authorization: Bearer <token>`, or as
 * `?token=` on WebSockets, downloads and HammerDB routes (tokenInQuery);
 * request logs redact it (log-redact.ts).
 *
 * Register it after the dashboard (plugins/ui.ts): its hook that answers a
 * browser's GET /jobs with index.html must run first.
 */
export function registerAuth(app: FastifyInstance, token: string | undefined): void {
  if (!token) return;
  app.addHook('onRequest', async (req, reply) => {
    const given = givenToken(req);
    const ok = given !== undefined && same(given, token);
    if (isPublic(req)) {
      if (!ok) anonymous.add(req);
      return;
    }
    if (!ok) return refuse(req, reply, 401, 'SLEDGE_E_UNAUTHORIZED', MESSAGE);
  });
}

/** Requests a public route answers on a server with a token, without that token. */
const anonymous = new WeakSet<FastifyRequest>();

/**
 * Whether a public route (health) was asked without the token on a server
 * that has one: it then answers only what needs no token (liveness), never
 * data such as job ids.
 */
export function isAnonymous(req: FastifyRequest): boolean {
  return anonymous.has(req);
}

/**
 * The OpenAPI page's request interceptor (serialised into the page by
 * @fastify/swagger-ui, so it must stand alone): fetching the document and
 * "Try it out" send the token the dashboard keeps in localStorage
 * ('sledge.token', ui/src/api/http.ts).
 */
export function docsRequestInterceptor<R extends { headers?: Record<string, string> }>(req: R): R {
  try {
    const t = (globalThis as unknown as { localStorage?: { getItem(k: string): string | null } }).localStorage?.getItem('sledge.token');
    const h = (req.headers ??= {});
    if (t && !h['Authorization'] && !h['authorization']) h['Authorization'] = 'Bearer ' + t;
  } catch {
    // storage blocked: the document answers 401 and the page says so
  }
  return req;
}
