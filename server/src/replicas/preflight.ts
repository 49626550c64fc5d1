import { SledgeError, type WorkloadConfig } from '@sledge/protocol';
import { workloadRunner } from '../workloads/index.js';
import type { ReplicaHub } from './hub.js';
import { planPlacement } from './placement.js';

/**
 * A run placed on replicas, checked before it is stored: this server is on
 * NATS over an authenticated connection, and the replicas it names (or
 * every ready one) can take the run's VUs now. Throws what to change.
 */
export function checkPlacement(cfg: WorkloadConfig, hub: ReplicaHub | null): void {
  const p = cfg.placement;
  if (p?.on !== 'replicas') return;
  if (!hub) {
    throw new SledgeError('SLEDGE_E_VALIDATION', 'placement.on is "replicas" but this server is not connected to NATS: start it with SLEDGE_NATS_URL (and SLEDGE_NATS_TOKEN), or set placement.on to "local"', { field: 'placement' });
  }
  if (!hub.authenticated) {
    throw new SledgeError(
      'SLEDGE_E_VALIDATION',
      "this server's NATS connection does not authenticate, and a run on replicas sends them the target's credentials: set SLEDGE_NATS_TOKEN (or SLEDGE_NATS_CREDS, SLEDGE_NATS_USER and SLEDGE_NATS_PASSWORD) and run NATS with authentication",
      { field: 'placement' },
    );
  }
  const conn = hub.connection;
  if (conn.state !== 'connected') {
    throw new SledgeError(
      'SLEDGE_E_CONFLICT',
      `this server's NATS connection is ${conn.state === 'closed' ? 'closed: restart the server' : 'lost (reconnecting): wait until it is back (the Replicas page says so), or set placement.on to "local"'}`,
      { field: 'placement' },
    );
  }
  const spec = workloadRunner(cfg.workload).vuSpec;
  if (!spec) throw new SledgeError('SLEDGE_E_VALIDATION', `${cfg.workload} runs cannot be placed on replicas`, { field: 'placement.on' });
  const plan = spec.workload.vuPlan(spec.options(cfg));
  if (plan.arrival) throw new SledgeError('SLEDGE_E_VALIDATION', 'an arrival rate is paced on this server: set placement.on to "local" for it (step loads do go over replicas)', { field: 'placement' });
  planPlacement(p, plan.vus, cfg.target.engine, hub.list());
}
