import type { FastifyInstance } from 'fastify';
import { SledgeError } from '@sledge/protocol';

/** Deepest nesting of objects and arrays a JSON body may have. */
export const JSON_MAX_DEPTH = 64;

/**
 * How deep a JSON text nests objects and arrays, counting brackets outside
 * strings in one pass. Stops counting as soon as `limit` is passed, so a
 * hostile body costs one linear scan and never a deep recursion.
 */
export function jsonDepthOver(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * The JSON body parser of the REST API: Fastify's own (prototype-poisoning
 * checks included) behind a nesting-depth limit, so a deeply nested body is
 * refused with 413 SLEDGE_E_TOO_LARGE saying the limit instead of reaching a
 * recursive validator. The size limit is Fastify's bodyLimit (see errors.ts).
 */
export function registerJsonBody(app: FastifyInstance, maxDepth = JSON_MAX_DEPTH): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    if (jsonDepthOver(text, maxDepth)) {
      done(new SledgeError('SLEDGE_E_TOO_LARGE', `the JSON body nests objects and arrays more than ${maxDepth} levels deep (the limit is ${maxDepth}): flatten it`, { field: 'body' }), undefined);
      return;
    }
    parse(req, text, done);
  });
}
