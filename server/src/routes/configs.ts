import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, BUILTIN_WORKLOADS, DEFAULT_WORKLOAD, ErrorBody, SavedConfig, SledgeError, parseSavedConfig } from '@sledge/protocol';
import type { RouteDeps } from './route-deps.js';

const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
/**
 * The body as documented; parseSavedConfig checks it (every field at fault in
 * one reply, options against the workload's own checks), so its parts are
 * left open here.
 */
const Input = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    target: Type.Unknown({ description: 'the target as a job body has it; a secret sent as "********" keeps the stored value (PUT)' }),
    workload: Type.Optional(Type.Unknown({ description: `the workload the options are for: ${BUILTIN_WORKLOADS.join(', ')} or another registered one; "${DEFAULT_WORKLOAD}" when left out` })),
    options: Type.Optional(
      Type.Unknown({
        description:
          "the workload's options as its job bodies carry them under the workload's key (TPROC-C: tprocc, TPROC-H: tproch, CH-benCHmark: chbench with the TPROC-C options of its transactional VUs under options.tprocc); defaults fill what is left out",
      }),
    ),
    tprocc: Type.Optional(Type.Unknown({ deprecated: true, description: 'Deprecated: the older shape { name, target, tprocc }, taken as workload "tprocc" with these options' })),
  },
  { description: 'A saved configuration: { name, target, workload, options }' },
);

/** Saved configurations: (target, workload, options), reusable. Secrets are stored, never returned. */
export const configRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { engine }) => {
  const store = engine.store;
  // Target and options are checked together: one reply lists every field at fault.
  // The older shape ({ name, target, tprocc }, TPROC-C schema options under target) is taken in today's.
  const parse = (body: unknown) => parseSavedConfig(body);
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
