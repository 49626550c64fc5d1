import type { FastifyRequest } from 'fastify';

/** Query keys whose values never reach a log (the API token, and anything that looks like a secret). */
const SECRET_KEY = /token|pass|secret/i;

const decode = (s: string) => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};

/**
 * A request URL fit for the log: the values of token/password-like query
 * keys (matched after percent-decoding, so %74oken= is caught too) and the
 * share token in /api/v1/shared/<token> and the dashboard's /s/<token> become
 * "[redacted]".
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const decodedPath = decode(path);
  const safePath = /\/shared\/|^\/s\//i.test(decodedPath) ? decodedPath.replace(/\/shared\/[^/]*/gi, '/shared/[redacted]').replace(/^\/s\/[^/]*/i, '/s/[redacted]') : path;
  if (q < 0) return safePath;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((p) => {
      const i = p.indexOf('=');
      const key = i < 0 ? p : p.slice(0, i);
      return SECRET_KEY.test(decode(key)) ? `${key}=[redacted]` : p;
    })
    .join('&');
  return `${safePath}?${query}`;
}

/**
 * Fastify's request serializer with the URL redacted. Headers are never
 * logged (Authorization carries the token).
 */
export function serializeRequest(req: FastifyRequest): Record<string, unknown> {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

export interface LogSink {
  write(line: string): void;
}

/** Fastify's logger setting from AppOptions.logger, with the redacting serializer. */
export function loggerOptions(logger: boolean | { level: string; stream?: LogSink } | undefined) {
  if (!logger) return false;
  const { level, stream } = logger === true ? { level: 'info', stream: undefined } : logger;
  return { level, ...(stream ? { stream } : {}), serializers: { req: serializeRequest } };
}
