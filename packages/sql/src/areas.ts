import { WORKLOADS, type WorkloadId } from '@sledge/protocol';

/**
 * Folders under an engine that are not (yet) a registered workload:
 * `metrics`, the engine's own monitoring statements (ASH) that every
 * workload shares; `chbench`, CH-benCHmark's three extra tables and 22
 * analytic queries (docs/chbench.md), there before the workload is
 * registered in protocol; and `engine`, the statements of the drivers'
 * engine-level sessions that any workload uses (the query session: session
 * settings, backend id, cancel, explain).
 */
const EXTRA_AREAS = ['metrics', 'chbench', 'engine'] as const;

/** The folder under an engine: a workload's files (`tprocc`), or one of EXTRA_AREAS. */
export type SqlWorkload = WorkloadId | (typeof EXTRA_AREAS)[number];

/** Every folder name the resolver takes under an engine. */
export const AREAS: readonly string[] = [...new Set([...WORKLOADS, ...EXTRA_AREAS])];
