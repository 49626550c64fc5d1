import type { FastifyInstance } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { VERSION } from '../version.js';
import { docsRequestInterceptor } from './auth.js';
import { buildLocalReference, nameTopLevelSchemas, unwrapSingleRefs } from './openapi-names.js';

/**
 * The OpenAPI document (components named by the protocol schemas' $id) and its UI at /docs.
 * app.ts imports this file only when it serves them: a `sledge --local` app (docs: false) never
 * loads @fastify/swagger, @fastify/swagger-ui or yaml.
 */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Sledge API', version: VERSION, description: 'Build and run TPROC-C workloads, stream live data, browse and export jobs.' },
      servers: [],
      tags: [
        { name: 'jobs', description: 'Build, check, delete and run jobs and everything they keep' },
        { name: 'targets', description: 'Engines, drivers and connections' },
        { name: 'configs', description: 'Saved configurations' },
        { name: 'profiles', description: 'Performance profiles (VU sweeps)' },
        { name: 'share', description: 'Read-only share links' },
        { name: 'metrics', description: 'Active session history and CPU agents' },
        { name: 'server', description: 'Health' },
        { name: 'replicas', description: 'Scale-out: replicas joined over NATS' },
      ],
    },
    // Components are named by the protocol schemas' $id ('Job', 'ErrorBody'), not def-0, def-1...
    refResolver: { buildLocalReference },
    transform: nameTopLevelSchemas,
    transformObject: unwrapSingleRefs,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs', uiConfig: { requestInterceptor: docsRequestInterceptor } });
}
