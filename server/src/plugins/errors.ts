import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Value, type Type, SledgeError, validate, type ErrorBody } from '@sledge/protocol';
import { redactUrl } from './log-redact.js';

/**
 * One error shape for every route: {"error":{"code","message","field"?}}.
 * 4xx for bad input with the field to fix; 5xx carry a generic message and
 * the details go to the server log only. Never a stack trace.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const prefix = httpPart === 'body' ? '' : httpPart === 'querystring' ? 'query' : (httpPart ?? '');
    const coerce = httpPart === 'querystring' || httpPart === 'params' || httpPart === 'headers';
    return (data: unknown) => {
      try {
        const input = coerce ? Value.Convert(schema as Type.TSchema, Value.Clone(data)) : data;
        return { value: validate(schema as Type.TSchema, input, prefix) };
      } catch (e) {
        return { error: e as Error };
      }
    };
  });
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  app.setErrorHandler((err: FastifyError | SledgeError | Error, req: FastifyRequest, reply: FastifyReply) => {
    if (SledgeError.is(err)) {
      const e = err as SledgeError;
      if (e.httpStatus >= 500) req.log.error({ err: e.cause ?? e }, e.message);
      return reply.status(e.httpStatus).send({ error: e.toInfo() } satisfies ErrorBody);
    }
    const fe = err as FastifyError;
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const limit = req.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 0;
      const message = `the request body is larger than the server's limit of ${limit} bytes (${(limit / 1048576).toFixed(limit % 1048576 ? 2 : 0)} MiB)`;
      return reply.status(413).send({ error: { code: 'SLEDGE_E_TOO_LARGE', message, field: 'body' } } satisfies ErrorBody);
    }
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      const code = fe.statusCode === 404 ? 'SLEDGE_E_NOT_FOUND' : fe.statusCode === 401 ? 'SLEDGE_E_UNAUTHORIZED' : 'SLEDGE_E_VALIDATION';
      const message = fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? `the request body is not valid JSON: ${fe.message}` : fe.message;
      return reply.status(fe.statusCode).send({ error: { code, message, ...(code === 'SLEDGE_E_VALIDATION' ? { field: 'body' } : {}) } } satisfies ErrorBody);
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ error: { code: 'SLEDGE_E_INTERNAL', message: 'internal error: see the server log' } } satisfies ErrorBody);
  });

  app.setNotFoundHandler((req, reply) => {
    reply.status(404).send({ error: { code: 'SLEDGE_E_NOT_FOUND', message: `no route ${req.method} ${redactUrl(req.url.split('?')[0]!)}` } } satisfies ErrorBody);
  });
}

/**
 * Fastify's `frameworkErrors` option: errors its router raises before any
 * route or hook runs (a path that is not valid percent-encoded UTF-8, a path
 * parameter over maxParamLength), answered in the one error shape instead of
 * Fastify's own body, without echoing the path.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const bad = (message: string) => reply.status(400).send({ error: { code: 'SLEDGE_E_VALIDATION', message, field: 'url' } } satisfies ErrorBody);
  if (err.code === 'FST_ERR_BAD_URL') return void bad('the URL is not valid: a percent sign must start a %XX escape of UTF-8 bytes');
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return void bad(`a path parameter is longer than ${req.server.initialConfig.maxParamLength ?? 100} characters`);
  req.log.error({ err }, 'router error');
  void reply.status(500).send({ error: { code: 'SLEDGE_E_INTERNAL', message: 'internal error: see the server log' } } satisfies ErrorBody);
}
