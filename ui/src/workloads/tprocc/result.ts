import { isTproccResult, type Job, type TproccMix } from '@sledge/protocol';

/**
 * A TPROC-C run's result figures. The one place that reads them from a job:
 * when results carry a workload-neutral headline ({metric, value, unit}),
 * only this accessor changes.
 */
export interface TproccFigures {
  nopm: number;
  tpm: number;
  tpmSource: 'engine' | 'client';
  activeVus: number;
  measuredSeconds: number;
  line: string;
  warehouses?: number | undefined;
  clientCpuMsPer1000Tx?: number | undefined;
  /** Connect pool runs: client-side TPM per transaction, and per pool connection. */
  clientTpm?: Record<string, number> | undefined;
  targets?: { name: string; sessions: number; transactions: number; clientTpm: Record<string, number> }[] | undefined;
  /** The transaction mix weights of the run (results since tprocc.mix is recorded). */
  mix?: TproccMix | undefined;
  /** false: not HammerDB's standard 10/10/1/1/1, NOPM not comparable with its standard runs. */
  standardMix?: boolean | undefined;
}

/** The run's NOPM, TPM and the rest of its result; undefined before there is one. */
export function tproccResult(job: Pick<Job, 'result'>): TproccFigures | undefined {
  const r = job.result;
  if (!isTproccResult(r)) return undefined;
  return {
    nopm: r.nopm,
    tpm: r.tpm,
    tpmSource: r.tpmSource,
    activeVus: r.activeVus,
    measuredSeconds: r.measuredSeconds,
    line: r.line,
    warehouses: r.warehouses,
    clientCpuMsPer1000Tx: r.clientCpuMsPer1000Tx,
    clientTpm: r.clientTpm,
    targets: r.targets,
    mix: r.mix,
    standardMix: r.standardMix,
  };
}
