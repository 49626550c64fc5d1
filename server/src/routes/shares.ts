import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, ErrorBody, ShareInfo, SledgeError } from '@sledge/protocol';
import type { RouteDeps } from './route-deps.js';

/** Share links of a job: list them and revoke one without deleting the job (creating one is in profiles.ts). */
export const shareRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { engine }) => {
  const store = engine.store;
  const requireJob = (id: string) => {
    if (!store.getJob(id)) throw new SledgeError('SLEDGE_E_NOT_FOUND', `job ${id} not found`, { field: 'id' });
  };
  app.get(
    '/jobs/:id/share',
    { schema: { tags: ['share'], summary: "A job's share links", params: Type.Object({ id: Type.String() }), response: { 200: Type.Array(ShareInfo), 404: ErrorBody } } },
    async (req) => {
      const { id } = req.params;
      requireJob(id);
      return store.listShares(id).map((s) => ({ token: s.token, path: `/s/${s.token}`, createdAt: s.createdAt }));
    },
  );
  app.delete(
    '/jobs/:id/share/:token',
    {
      schema: {
        tags: ['share'],
        summary: 'Revoke a share link; the job and its other links stay',
        params: Type.Object({ id: Type.String(), token: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 204: Type.Null(), 404: ErrorBody },
      },
    },
    async (req, reply) => {
      const { id, token } = req.params;
      requireJob(id);
      if (!store.revokeShare(token, id)) throw new SledgeError('SLEDGE_E_NOT_FOUND', `job ${id} has no such share link (revoked already, or it belongs to another job)`, { field: 'token' });
      return reply.status(204).send(null);
    },
  );
};
