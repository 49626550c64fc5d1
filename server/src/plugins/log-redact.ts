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

/** A secret-like key and its "=" inside decoded text (a separator or "=" may have been percent-encoded). */
const SECRET_PARAM = /[^?&;=/]*(?:token|pass|secret)[^?&;=/]*=/i;

/**
 * One parameter (key=value, or a path part before the first separator) fit
 * for the log: a secret-like key keeps its name and loses its value. When
 * the separators or "=" were percent-encoded (%3B, %26, %3D), the decoded
 * text is judged, and shown decoded up to the secret's "=".
 */
function redactParam(p: string): string {
  const i = p.indexOf('=');
  if (i >= 0 && SECRET_KEY.test(decode(p.slice(0, i)))) return `${p.slice(0, i)}=[redacted]`;
  const d = decode(p);
  const m = SECRET_PARAM.exec(d);
  return m ? `${d.slice(0, m.index + m[0].length)}[redacted]` : p;
}

/**
 * A request URL fit for the log: the values of token/password-like
 * parameters (matched after percent-decoding, so %74oken= is caught too),
 * whether they follow "?", "&" or ";" (/ws;token=..., ?a=1;token=...: a
 * matrix parameter or a query a client splits on ";"), and the share token
 * in /api/v1/shared/<token> and the dashboard's /s/<token> become "[redacted]".
 */
export function redactUrl(url: string): string {
  const q = url.search(/[?;]/);
  const path = q < 0 ? url : url.slice(0, q);
  const decodedPath = decode(path);
  const safePath = /\/shared\/|^\/s\//i.test(decodedPath) ? decodedPath.replace(/\/shared\/[^/]*/gi, '/shared/[redacted]').replace(/^\/s\/[^/]*/i, '/s/[redacted]') : redactParam(path);
  if (q < 0) return safePath;
  const rest = url
    .slice(q + 1)
    .split(/([&;?])/)
    .map((p, i) => (i % 2 === 1 ? p : redactParam(p)))
    .join('');
  return `${safePath}${url[q]}${rest}`;
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
