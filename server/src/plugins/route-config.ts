import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody, ErrorCode } from '@sledge/protocol';
import { failure, sendJson } from '../routes/hammerdb/reply.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers without the API token: it serves no data (health, static files) or is its own capability (share links). */
    public?: boolean;
    /** The token may come as `?token=` (WebSockets, downloads, HammerDB clients) besides `Authorization: Bearer`. */
    tokenInQuery?: boolean;
    /** Refusals use HammerDB's envelope {"error":{"message"}} instead of Sledge's ErrorBody. */
    hammerdb?: boolean;
  }
}

/**
 * Refuse a request from a hook, in the shape its route speaks: HammerDB's
 * envelope on the HammerDB routes, Sledge's ErrorBody everywhere else.
 */
export function refuse(req: FastifyRequest, reply: FastifyReply, status: number, code: ErrorCode, message: string, field?: string): FastifyReply {
  if (req.routeOptions.config?.hammerdb) return sendJson(reply, failure(message), status);
  const body: ErrorBody = { error: { code, message, ...(field ? { field } : {}) } };
  return reply.status(status).send(body);
}
