import type { FastifyReply } from 'fastify';

/**
 * HammerDB's web-service replies: JSON built with huddle, so every leaf is a
 * string, and the envelopes {"success":{"message":...}} / {"error":{"message":...}}.
 * Errors are still HTTP 200, as HammerDB's are (clients read the envelope).
 */
export type HdbJson = string | HdbJson[] | { [k: string]: HdbJson };

/** Every number and boolean becomes a string; null and undefined become "". */
export function huddle(v: unknown): HdbJson {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(huddle);
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, huddle(x)]));
  return String(v);
}

export function sendJson(reply: FastifyReply, body: unknown, status = 200): FastifyReply {
  return reply.status(status).type('application/json; charset=utf-8').send(JSON.stringify(huddle(body)));
}

export const success = (message: string) => ({ success: { message } });
export const failure = (message: string) => ({ error: { message } });

/** A command's outcome: the envelope to send. */
export type Outcome = ReturnType<typeof success> | ReturnType<typeof failure> | Record<string, unknown> | unknown[];

export class BodyError extends Error {}

/** Key/value pairs of a POST body, or a BodyError carrying HammerDB's message. */
export type Pairs = [string, string][];

const mayHoldSecret = (s: string) => /pass|secret|token/i.test(s);

/**
 * Parse a command body as HammerDB does: a JSON object whose values are
 * scalars. HammerDB wraps the content in braces before parsing, so the
 * brace-less bodies Tcl scripts send (` "db": "pg" `) are accepted too.
 * An empty body is an empty object.
 */
export function parsePairs(raw: unknown): Pairs {
  const text = typeof raw === 'string' ? raw : raw === undefined || raw === null ? '' : Buffer.isBuffer(raw) ? raw.toString('utf8') : JSON.stringify(raw);
  if (text.trim() === '') return [];
  const wrapped = text.trim().startsWith('{') ? text.trim() : `{${text}}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(wrapped);
  } catch {
    // The body is echoed like HammerDB does, unless it might carry a password.
    throw new BodyError(mayHoldSecret(wrapped) ? 'Not a valid JSON string (not echoed: it may hold a password)' : `Not a valid JSON string: '${wrapped.length > 500 ? `${wrapped.slice(0, 500)}...` : wrapped}'`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new BodyError('Not a valid JSON object: send {"key": "value"}');
  return Object.entries(parsed as Record<string, unknown>).map(([k, v]) => {
    if (v !== null && typeof v === 'object') throw new BodyError(`Value of "${k}" must be a string`);
    return [k, v === null ? '' : String(v)];
  });
}
