import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ReplicaList } from '@sledge/protocol';
import { VERSION } from '../version.js';
import type { RouteDeps } from './route-deps.js';

/** GET /replicas: scale-out's state: the NATS server (no credentials) and every replica that joined, with its health. */
export const replicaRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { engine }) => {
  app.get(
    '/replicas',
    { schema: { tags: ['replicas'], summary: 'Replicas joined over NATS: name, version, cores, drivers, state (ready, busy, lost, left), CPU, last heartbeat; this server\'s NATS connection state', response: { 200: ReplicaList } } },
    async () => engine.replicas?.describe() ?? { enabled: false, nats: null, authenticated: false, version: VERSION, now: Date.now(), replicas: [] },
  );
};
