import type { Driver } from '@sledge/core';
import { SledgeError, type Job, type JobType, type TargetTestResult, type WorkloadConfig } from '@sledge/protocol';
import type { FileJobBody, FileJobEnv, JobBody, JobEnv } from '../engine/job-types.js';
import type { VuJobSpec } from '../runner/vu-run.js';
import type { ReportData } from '../report/data.js';
import type { Html } from '../report/escape.js';
import type { JobArtifact } from '../artifact/schema.js';
import type { JobStore } from '@sledge/jobstore';

/*
 * A workload's runner is typed by its own configuration `C` (bodies,
 * checks and VU spec take TproccJobConfig, TprochJobConfig ...). The
 * registry holds every workload's runner as a WorkloadRunner of the common
 * configuration: the functions are methods (TypeScript checks method
 * parameters both ways), and the engine calls a runner only with a job of
 * its id, so each gets its own workload's configuration.
 */

/** A database job body (`sampled`: ASH and CPU samplers run beside it). */
export interface DbBody<C extends WorkloadConfig = WorkloadConfig> {
  db: true;
  run(env: JobEnv<C>): ReturnType<JobBody<C>>;
  sampled?: boolean;
}
/** A job body that only writes files (datagen). */
export interface FilesBody<C extends WorkloadConfig = WorkloadConfig> {
  db: false;
  run(env: FileJobEnv<C>): ReturnType<FileJobBody<C>>;
}
/** A job body: most work on a database through its driver; some (datagen) only write files. */
export type Body<C extends WorkloadConfig = WorkloadConfig> = DbBody<C> | FilesBody<C>;

/** A result's headline figures in a report: [value, label] boxes, and a note under the result line. */
export interface ResultFigures {
  stats: [value: string, label: string][];
  note?: string;
}

/**
 * A workload's parts of the HTML reports (server/src/report/ lays out the
 * page and its workload-neutral sections; these come from the workload's
 * folder, so a new workload adds its own without editing report/).
 */
export interface WorkloadReport {
  /** The result section's figures; a job whose result is not this workload's has none. */
  figures(job: Job): ResultFigures | undefined;
  /** Sections after the throughput chart (TPROC-H: query times); '' for none. */
  sections?(d: ReportData): (Html | '')[];
  /** A comparison's sections (result table, timelines ...) before the configuration differences. */
  compare?(data: ReportData[]): (Html | '')[];
  /** A job's VUs for its legend name in a comparison. */
  vus?(job: Job): number | undefined;
  /** HammerDB's v6 result artifact of a run with a result (`lines`: its result lines), for workloads HammerDB has a form for. */
  artifact?(store: JobStore, job: Job, lines: string[]): JobArtifact;
}

/** What the server knows of one workload: its job bodies by job type, and its checks before a job is stored. */
export interface WorkloadRunner<C extends WorkloadConfig = WorkloadConfig> {
  /** The job body's `workload` value, e.g. 'tprocc'. */
  id: string;
  bodies: Partial<Record<JobType, Body<C>>>;
  /** Its VU runner (run jobs): what a replica runs when a run is placed on replicas. */
  vuSpec?: VuJobSpec<unknown, C>;
  /**
   * Checks of a database job before it is stored (the schema a build or run
   * needs, option limits), on a driver that loads. `busy`: a queued or
   * running job uses the same database, so its schema state is what that job
   * will leave (check only what does not depend on it).
   */
  preflight?(cfg: C, driver: Driver, o: { busy: boolean }): Promise<void>;
  /**
   * Its schema on a target, for the target test (POST /targets/test, run
   * with the default workload's configuration): whether its tables are there
   * and how large the schema is. Opens and closes its own session.
   */
  schemaState?(cfg: C, driver: Driver): Promise<TargetTestResult['schema']>;
  /** Checks of a file-only job before it is stored; may settle values the request left out (stored with the job). */
  preflightFiles?(cfg: C, o: { seedExplicit: boolean }): void;
  /** Its parts of the job and compare HTML reports (workloads/<id>/report*.ts). */
  report?: WorkloadReport;
}

const RUNNERS = new Map<string, WorkloadRunner>();

/** Add a workload to the server (shipped ones in workloads/index.ts; a test may add its own). Replaces one of the same id. */
export function registerWorkloadRunner<C extends WorkloadConfig>(r: WorkloadRunner<C>): void {
  RUNNERS.set(r.id, r);
}

export function workloadRunner(id: string): WorkloadRunner {
  const r = RUNNERS.get(id);
  if (!r) throw new SledgeError('SLEDGE_E_VALIDATION', `workload ${id} is not known to this server`, { field: 'workload' });
  return r;
}

/** A workload's report parts, if it is known and has them (a report of a workload this server does not run still renders its generic sections). */
export function workloadReport(id: string): WorkloadReport | undefined {
  return RUNNERS.get(id)?.report;
}

/** The body of a job: by its workload and job type. */
export function jobBody(workload: string, type: JobType): Body {
  const b = workloadRunner(workload).bodies[type];
  if (!b) throw new SledgeError('SLEDGE_E_VALIDATION', `workload ${workload} has no ${type} job`, { field: 'type' });
  return b;
}
