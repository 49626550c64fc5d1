import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, ConnectPool, EngineIdSchema, ErrorBody, engineOfPoolPrefix, isEngineId, parseTarget, poolOfXml, readPoolXmlAsync, redact, SledgeError, type EngineId, type PoolImport } from '@sledge/protocol';
import { connectPoolFile, deleteConnectPool, readConnectPool, saveConnectPool } from '../pools/cpool-files.js';
import type { RouteDeps } from './route-deps.js';

const Engine = EngineIdSchema;
const ImportBody = Type.Object(
  {
    xml: Type.String({ maxLength: 1_000_000, description: "HammerDB connect pool file (config/connectpool/<prefix>cpool.xml), as is" }),
    engine: Type.Optional(Engine),
    target: Type.Optional(Type.Unknown({ description: 'The job target the pool is for: the pool is then checked against it (each connection as that target with its overrides)' })),
  },
  { additionalProperties: false },
);
const ImportReply = Type.Object({
  engine: Engine,
  pool: ConnectPool,
  ignored: Type.Array(Type.String(), { description: 'keys of the file Sledge has no setting for' }),
  secrets: Type.Array(Type.String(), { description: 'pool fields that held a secret (returned as "********": set them in target.pool yourself, or import the file in the UI or with the CLI, which read it locally)' }),
});
const PrefixParams = Type.Object({ prefix: Type.String({ pattern: '^[a-z]{2,8}$' }) });
const PutBody = Type.Object({ xml: Type.String({ maxLength: 1_000_000 }) }, { additionalProperties: false });

/** The pool with its secrets redacted, and which fields they were. */
function shown(p: PoolImport): Type.Static<typeof ImportReply> {
  const secrets: string[] = [];
  p.pool.connections.forEach((c, i) => {
    for (const [k, v] of Object.entries(c)) if (v !== '' && redact({ [k]: v })[k] !== v) secrets.push(`pool.connections.${i}.${k}`);
  });
  return { engine: p.engine, pool: redact(p.pool) as Type.Static<typeof ConnectPool>, ignored: p.ignored, secrets };
}

const engineOfPrefix = (prefix: string): EngineId => {
  const e = engineOfPoolPrefix(prefix);
  if (!e) throw new SledgeError('SLEDGE_E_VALIDATION', `prefix "${prefix}" is not a HammerDB database prefix: one of pg, maria, mysql, mssqls, ora, db2`, { field: 'prefix' });
  return e;
};

/**
 * Connect pools: convert a HammerDB connect pool file to a target's `pool`,
 * and keep the files the HammerDB command API reads when <prefix>_connect_pool
 * is true (stored owner-only, passwords sealed: pools/cpool-files.ts).
 * Passwords never come back: they are "********" in every reply.
 */
export const poolRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { engine }) => {
  app.post(
    '/pools/import',
    {
      schema: {
        tags: ['targets'],
        summary: 'Convert a HammerDB connect pool XML file to target.pool (checked against `target` when given); secrets are redacted',
        body: ImportBody,
        response: { 200: ImportReply, 400: ErrorBody },
      },
    },
    async (req) => {
      const { xml, target } = req.body;
      const en = req.body.engine ?? (isEngineId((target as { engine?: unknown } | undefined)?.engine) ? ((target as { engine: EngineId }).engine) : undefined);
      const got = poolOfXml(await readPoolXmlAsync(xml), en);
      if (target !== undefined) {
        if (typeof target !== 'object' || target === null) throw new SledgeError('SLEDGE_E_VALIDATION', 'target must be an object with an "engine" field', { field: 'target' });
        parseTarget({ ...(target as object), pool: got.pool });
      }
      return shown(got);
    },
  );
  app.put(
    '/pools/hammerdb/:prefix',
    { schema: { tags: ['hammerdb'], summary: 'Store <prefix>cpool.xml for the HammerDB command API (<prefix>_connect_pool true)', params: PrefixParams, body: PutBody, response: { 200: ImportReply, 400: ErrorBody, 409: ErrorBody } } },
    async (req) => shown(await saveConnectPool(engine.dataDir, req.params.prefix, engineOfPrefix(req.params.prefix), req.body.xml, engine.store)),
  );
  app.get(
    '/pools/hammerdb/:prefix',
    { schema: { tags: ['hammerdb'], summary: 'The stored <prefix>cpool.xml, as a pool (secrets redacted)', params: PrefixParams, response: { 200: ImportReply, 404: ErrorBody, 422: ErrorBody } } },
    async (req) => {
      const got = await readConnectPool(engine.dataDir, req.params.prefix, engineOfPrefix(req.params.prefix), engine.store);
      if (!got) throw new SledgeError('SLEDGE_E_NOT_FOUND', `there is no ${connectPoolFile(engine.dataDir, req.params.prefix).split('/').pop()}`, { field: 'prefix' });
      return shown(got);
    },
  );
  app.delete(
    '/pools/hammerdb/:prefix',
    { schema: { tags: ['hammerdb'], params: PrefixParams, response: { 204: Type.Null(), 404: ErrorBody } } },
    async (req, reply) => {
      if (!deleteConnectPool(engine.dataDir, req.params.prefix)) throw new SledgeError('SLEDGE_E_NOT_FOUND', `there is no ${req.params.prefix}cpool.xml`, { field: 'prefix' });
      return reply.status(204).send(null);
    },
  );
};
