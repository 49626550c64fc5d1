import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Value, ClientFrame, type ServerFrame } from '@sledge/protocol';
import type { Subscriber } from '../engine/stream.js';
import type { RouteDeps } from './route-deps.js';
import '../plugins/route-config.js';

/**
 * GET /api/v1/ws — one socket for every live stream. The client subscribes
 * to jobs (optionally `since` a seq to resume; it then also gets those jobs'
 * record changes as `job` frames) and to job-list changes.
 * Sending never waits: a socket that falls behind is resynchronised with a
 * snapshot rather than slowing the run. Browsers cannot set headers on a
 * WebSocket, so the API token may come as ?token=; a handshake from a page of
 * another site is refused (plugins/origin.ts).
 */
export const wsRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { engine }) => {
  app.get('/ws', { websocket: true, schema: { hide: true }, config: { tokenInQuery: true } }, (socket) => {
    const send = (f: ServerFrame): boolean => {
      if (socket.readyState !== socket.OPEN) return false;
      socket.send(JSON.stringify(f));
      return true;
    };
    const sub: Subscriber = { send, backlog: () => socket.bufferedAmount };
    const subscribed = new Set<string>();
    let feed = false;
    // Job-list changes: every job with {t:"jobs",on:true}; otherwise the jobs this socket subscribed to
    // (a live panel learns the engine version, summary and result as they are set).
    const offJobs = engine.onJob((job) => {
      if (feed || subscribed.has(job.id)) send({ t: 'job', job });
    });

    socket.on('message', (raw) => {
      let msg: unknown;
      try {
        msg = JSON.parse(String(raw));
      } catch {
        send({ t: 'error', error: { code: 'SLEDGE_E_VALIDATION', message: 'frames must be JSON', field: 'frame' } });
        return;
      }
      if (!Value.Check(ClientFrame, msg)) {
        send({ t: 'error', error: { code: 'SLEDGE_E_VALIDATION', message: 'unknown frame: expected {t:"subscribe",jobId,since?} | {t:"unsubscribe",jobId} | {t:"jobs",on} | {t:"ping"}', field: 'frame' } });
        return;
      }
      const f = msg as ClientFrame;
      switch (f.t) {
        case 'subscribe': {
          if (!engine.store.getJob(f.jobId)) {
            send({ t: 'error', jobId: f.jobId, error: { code: 'SLEDGE_E_NOT_FOUND', message: `job ${f.jobId} not found`, field: 'jobId' } });
            return;
          }
          subscribed.add(f.jobId);
          engine.stream(f.jobId).subscribe(sub, f.since);
          break;
        }
        case 'unsubscribe':
          subscribed.delete(f.jobId);
          engine.stream(f.jobId).unsubscribe(sub);
          break;
        case 'jobs':
          feed = f.on;
          break;
        case 'ping':
          send({ t: 'pong', ts: Date.now() });
          break;
      }
    });
    socket.on('close', () => {
      offJobs();
      for (const id of subscribed) engine.stream(id).unsubscribe(sub);
    });
  });
};
