import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { ErrorBody, Problems, SavedConfig, SledgeError, normalizeTproccSchema, parseTarget, parseTproccOptions } from '@sledge/protocol';
import type { RouteDeps } from './route-deps.js';

const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
const Input = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }), target: Type.Unknown(), tprocc: Type.Optional(Type.Unknown()) });

/** Saved configurations: a target plus TPROC-C options, reusable. Secrets are stored, never returned. */
export const configRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { engine }) => {
  const store = engine.store;
  // Target and options are checked together: one reply lists every field at fault.
  // A configuration of the old shape (TPROC-C schema options under target) is taken in today's.
  const parse = (body: { name: string; target: unknown; tprocc?: unknown }) => {
    const b = normalizeTproccSchema(body);
    const p = new Problems();
    const target = p.check(() => parseTarget(b.target));
    const tprocc = p.check(() => parseTproccOptions(b.tprocc ?? {}, 'tprocc', target?.engine));
    p.throwIfAny();
    return { name: b.name.trim(), target: target!, tprocc: tprocc! };
  };
  app.get('/configs', { schema: { tags: ['configs'], summary: 'Saved configurations (secrets redacted)', response: { 200: Type.Array(SavedConfig) } } }, async () => store.listConfigs());
  app.post('/configs', { schema: { tags: ['configs'], summary: 'Save a configuration', body: Input, response: { 201: SavedConfig, 400: ErrorBody, 409: ErrorBody } } }, async (req, reply) => {
    return reply.status(201).send(store.saveConfig(parse(req.body)));
  });
  app.get('/configs/:id', { schema: { tags: ['configs'], params: IdParams, response: { 200: SavedConfig, 404: ErrorBody } } }, async (req) => {
    const c = store.getConfig(req.params.id, { withSecrets: false });
    if (!c) throw new SledgeError('SLEDGE_E_NOT_FOUND', 'configuration not found', { field: 'id' });
    return c;
  });
  app.put(
    '/configs/:id',
    { schema: { tags: ['configs'], summary: 'Update; a secret sent back as "********" keeps its stored value', params: IdParams, body: Input, response: { 200: SavedConfig, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } } },
    async (req) => {
      const id = req.params.id;
      if (!store.getConfig(id, { withSecrets: false })) throw new SledgeError('SLEDGE_E_NOT_FOUND', 'configuration not found', { field: 'id' });
      return store.updateConfig(id, parse(req.body));
    },
  );
  app.delete('/configs/:id', { schema: { tags: ['configs'], params: IdParams, response: { 204: Type.Null(), 404: ErrorBody } } }, async (req, reply) => {
    if (!store.deleteConfig(req.params.id)) throw new SledgeError('SLEDGE_E_NOT_FOUND', 'configuration not found', { field: 'id' });
    return reply.status(204).send(null);
  });
};
