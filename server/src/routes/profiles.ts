import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, BestJobs, ErrorBody, ProfileDetail, ProfileScalability, ProfileSummary, ShareLink, SledgeError } from '@sledge/protocol';
import { profileScalability } from '../engine/scalability.js';
import { buildSnapshot } from '../engine/snapshot.js';
import type { RouteDeps } from './route-deps.js';

/** Performance profiles (run jobs sharing a profileId: a VU sweep) and share links. */
export const profileRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { engine }) => {
  const store = engine.store;
  app.get('/profiles', { schema: { tags: ['profiles'], summary: 'Performance profiles: run jobs grouped by profileId', response: { 200: Type.Array(ProfileSummary) } } }, async () => store.profiles());
  app.get('/profiles/:id', { schema: { tags: ['profiles'], summary: 'NOPM and TPM against active VUs for one profile', params: Type.Object({ id: Type.Integer({ minimum: 1 }) }), response: { 200: ProfileDetail, 404: ErrorBody } } }, async (req) => {
    const id = req.params.id;
    const jobs = store.profileJobs(id);
    if (!jobs.length) throw new SledgeError('SLEDGE_E_NOT_FOUND', `profile ${id} has no completed run jobs`, { field: 'id' });
    return { profileId: id, jobs };
  });
  app.get(
    '/profiles/:id/scalability',
    {
      schema: {
        tags: ['profiles'],
        summary: 'Why throughput stopped scaling: the USL fit (σ, κ, peak, 95% band), the latency knee and the waits that grew from step to step',
        params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
        response: { 200: ProfileScalability, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (req) => profileScalability(store, req.params.id),
  );
  app.get('/best', { schema: { tags: ['jobs'], summary: 'Best NOPM job per engine (the starred jobs)', response: { 200: BestJobs } } }, async () => store.bestJobs());

  app.post('/jobs/:id/share', { schema: { tags: ['share'], summary: 'Create a read-only share link for a job', params: Type.Object({ id: Type.String() }), response: { 201: ShareLink, 404: ErrorBody } } }, async (req, reply) => {
    const { id } = req.params;
    if (!store.getJob(id)) throw new SledgeError('SLEDGE_E_NOT_FOUND', `job ${id} not found`, { field: 'id' });
    const { token } = store.createShare(id);
    return reply.status(201).send({ token, path: `/s/${token}` });
  });
  app.get('/shared/:token', { schema: { tags: ['share'], summary: 'A shared job (read-only, works without an API token)', params: Type.Object({ token: Type.String({ minLength: 8, maxLength: 64 }) }), response: { 200: Type.Unknown(), 404: ErrorBody } } }, async (req) => {
    const jobId = store.resolveShare(req.params.token);
    if (!jobId) throw new SledgeError('SLEDGE_E_NOT_FOUND', 'this share link does not exist or was revoked', { field: 'token' });
    // No API token here: the ASH the public may see (the target database's sessions).
    return buildSnapshot(store, jobId, 'public');
  });
};
