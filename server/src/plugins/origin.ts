import os from 'node:os';
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { refuse } from './route-config.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The host name of a Host header value ("[::1]:8080" -> "::1", "Box:80" -> "box"). */
export function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') < 0 ? undefined : h.indexOf(']'));
  const i = h.lastIndexOf(':');
  return i < 0 ? h : h.slice(0, i);
}

/** Whether a listen address (HOST) is reachable only from this machine: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice(7) : h;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/**
 * Whether a Host header names this server. DNS rebinding points an
 * attacker's name at 127.0.0.1, and the browser then sends that name as the
 * Host, so only names are checked: any IP literal passes (no DNS behind it),
 * as do localhost and *.localhost, this machine's host name, and the names
 * in `allowed` (the listen address and SLEDGE_ALLOWED_HOSTS; "*" allows all).
 * A request without a Host (HTTP/1.0 tools) comes from no browser and passes.
 */
export function hostAllowed(host: string | undefined, allowed: readonly string[]): boolean {
  if (host === undefined || host === '') return true;
  const name = hostName(host).replace(/\.$/, '');
  if (isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost')) return true;
  const machine = os.hostname().toLowerCase();
  if (name === machine || name === machine.split('.')[0]) return true;
  return allowed.some((a) => a === '*' || a.trim().toLowerCase().replace(/\.$/, '') === name);
}

/**
 * Whether a browser sent this request from a page of another origin: its
 * Origin header is not this server (http(s)://<Host>), or "null", or its
 * Sec-Fetch-Site is cross-site or same-site (another port of localhost is
 * same-site). Tools that send neither header (curl, HammerDB's Tcl client,
 * the agent) are not browsers on another site.
 */
export function isCrossSite(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return true;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  const host = req.headers.host;
  if (host === undefined) return true;
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return true; // "null" (sandboxed frames, file://) or garbage
  }
  const h = host.toLowerCase();
  const defaultPort = o.protocol === 'https:' ? ':443' : ':80';
  return o.host !== h && o.host !== (h.endsWith(defaultPort) ? h.slice(0, -defaultPort.length) : h);
}

/**
 * Whether a GET that changes state (HammerDB's jobs?jobid=ID&delete) may
 * run. Not being cross-site (isCrossSite) is not enough: over plain http://
 * to a LAN address a browser sends no Sec-Fetch-Site, and an <img> or a link
 * sends no Origin, so a page of any site could delete jobs. The request must
 * also carry positive evidence that no page of another site sent it:
 * - an Authorization header (a page cannot add one to a cross-site request
 *   without a CORS preflight, which this server never grants);
 * - Sec-Fetch-Site same-origin, or none (typed in the address bar, a bookmark);
 * - an Origin header naming this server;
 * - or a client that is no browser: every browser's User-Agent contains
 *   "Mozilla/" and a page cannot change it, while HammerDB's Tcl client
 *   ("Tcl http client package ..."), curl and scripts send their own or none.
 */
export function stateChangingGetAllowed(req: FastifyRequest): boolean {
  if (isCrossSite(req)) return false;
  if (req.headers.authorization !== undefined) return true;
  const site = req.headers['sec-fetch-site'];
  if (site === 'same-origin' || site === 'none') return true;
  if (req.headers.origin !== undefined) return true; // not cross-site (checked above): this server's own origin
  return !/mozilla\//i.test(req.headers['user-agent'] ?? '');
}

export function stateChangingGetMessage(what: string, instead: string): string {
  return `refused: ${what} changes state, and this GET may come from a page of another site (a browser sent it without Sec-Fetch-Site: same-origin, an Origin of this server or an Authorization header); ${instead}`;
}

const isUpgrade = (req: FastifyRequest) => req.headers.upgrade?.toLowerCase() === 'websocket';

export function crossSiteMessage(req: FastifyRequest): string {
  const from = req.headers.origin ?? `a ${req.headers['sec-fetch-site']} page`;
  return `refused: ${req.method} ${isUpgrade(req) ? '(WebSocket) ' : ''}from another site (${from}) is not allowed; use the Sledge dashboard served by this server, or a tool that sends no Origin`;
}

export interface OriginOptions {
  /** Host names besides IP literals, localhost and this machine's name (the listen address, SLEDGE_ALLOWED_HOSTS). */
  allowedHosts?: readonly string[];
}

/**
 * Cross-site and DNS-rebinding guards, for every route whatever the token:
 * - a Host that is not this server's is refused (403) on every request;
 * - a state-changing request (any method but GET/HEAD/OPTIONS) or a WebSocket
 *   handshake sent by a browser from another site is refused (403).
 * GET routes that change state (HammerDB's jobs?jobid=ID&delete) ask
 * stateChangingGetAllowed themselves.
 */
export function registerOriginGuard(app: FastifyInstance, opts: OriginOptions = {}): void {
  const allowed = opts.allowedHosts ?? [];
  app.addHook('onRequest', async (req, reply) => {
    if (!hostAllowed(req.headers.host, allowed)) {
      return refuse(
        req,
        reply,
        403,
        'SLEDGE_E_FORBIDDEN',
        `refused: this server does not answer to the host name "${hostName(req.headers.host ?? '')}" (DNS rebinding guard); add it to SLEDGE_ALLOWED_HOSTS`,
        'host',
      );
    }
    if ((!SAFE_METHODS.has(req.method) || isUpgrade(req)) && isCrossSite(req)) return refuse(req, reply, 403, 'SLEDGE_E_FORBIDDEN', crossSiteMessage(req), 'origin');
  });
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * /api/v1 speaks JSON: a state-changing request carrying another content type
 * (text/plain, a form: the types a cross-site page can send without a CORS
 * preflight) is refused with 415 before anything reads it.
 */
export async function jsonBodiesOnly(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  if (SAFE_METHODS.has(req.method)) return undefined;
  const type = req.headers['content-type'];
  if (type === undefined || JSON_TYPE.test(type)) return undefined;
  return refuse(req, reply, 415, 'SLEDGE_E_VALIDATION', `the request body must be JSON: send "content-type: application/json" (got "${type.slice(0, 100)}")`, 'content-type');
}
