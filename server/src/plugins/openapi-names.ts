/**
 * OpenAPI component names for @fastify/swagger: components are named by the
 * protocol schemas' `$id` ('Job', 'ErrorBody', 'TproccOptions') rather than
 * def-0, def-1...
 *
 * @fastify/swagger hoists a schema into components only when it is nested in
 * a route schema; a route's whole body or response schema is inlined, its
 * `$id` dropped. So `nameTopLevelSchemas` (the `transform` option, used for the
 * document only, never for validation) nests each named body and response
 * schema in a one-member `allOf`, and `unwrapSingleRefs` (`transformObject`)
 * turns the resulting `{ allOf: [{ $ref }] }` back into a plain `$ref`.
 */

type Json = Record<string, unknown>;

const NAME = /^[A-Za-z0-9._-]+$/;

/** refResolver.buildLocalReference: the schema's $id when usable, else def-N. */
export function buildLocalReference(json: Json, _baseUri: unknown, _fragment: string, i: number): string {
  const id = json['$id'];
  if (typeof id === 'string' && NAME.test(id)) {
    if (json['title'] === undefined) json['title'] = id;
    return id;
  }
  return `def-${i}`;
}

const isNamed = (s: unknown): s is Json => typeof s === 'object' && s !== null && typeof (s as Json)['$id'] === 'string' && NAME.test((s as Json)['$id'] as string);

const wrap = (s: unknown): unknown => (isNamed(s) ? { allOf: [s] } : s);

/** `transform`: the route schema with its named body and responses made nested (so they become components). */
export function nameTopLevelSchemas({ schema, url }: { schema: unknown; url: string }): { schema: Json; url: string } {
  if (!schema || typeof schema !== 'object') return { schema: schema as Json, url };
  const s = { ...(schema as Json) };
  if ('body' in s) s['body'] = wrap(s['body']);
  const response = s['response'];
  if (response && typeof response === 'object') {
    s['response'] = Object.fromEntries(Object.entries(response as Json).map(([code, r]) => [code, wrap(r)]));
  }
  return { schema: s, url };
}

/** `transformObject`: `{ allOf: [{ $ref }] }` with nothing else becomes `{ $ref }`, everywhere in the document. */
export function unwrapSingleRefs(doc: { openapiObject: object } | { swaggerObject: object }): Json {
  const walk = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(walk);
    if (!x || typeof x !== 'object') return x;
    const o = x as Json;
    const all = o['allOf'];
    if (Array.isArray(all) && all.length === 1 && Object.keys(o).length === 1) {
      const only = all[0] as Json | undefined;
      if (only && typeof only === 'object' && typeof only['$ref'] === 'string' && Object.keys(only).length === 1) return { $ref: only['$ref'] };
    }
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, walk(v)]));
  };
  return walk('openapiObject' in doc ? doc.openapiObject : doc.swaggerObject) as Json;
}
