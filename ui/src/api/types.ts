/**
 * Response shapes of the metrics endpoints that have no type in
 * @sledge/protocol (the server builds them from its agent hub and job store).
 * Everything else the UI reads is typed by the protocol package.
 */
import type { AshSample, CpuSample, SystemInfo } from '@sledge/protocol';

/** GET /api/v1/jobs/:id/cpu */
export interface CpuReport {
  /** Samples per agent label, in time order. */
  sources: Record<string, CpuSample[]>;
  /** System info recorded with the job, per agent label. */
  system: Record<string, Record<string, unknown>>;
}

/** GET /api/v1/agents: one connected CPU agent. */
export interface AgentInfo {
  id: number;
  label: string;
  system: SystemInfo;
  connectedAt: number;
  last?: CpuSample;
}

/** POST /api/v1/targets/ash: one sample of a target's active sessions. */
export interface TargetAshSample {
  source: string;
  samples: AshSample[];
}
