import { join } from 'node:path';
import { DATABASES, databaseByPrefix, defaultDict, type Dict, type HdbDatabase } from './dicts.js';

export type Benchmark = 'TPC-C' | 'TPC-H';

/** vuset options with HammerDB's defaults (generic.xml virtual_user_options), in print vuconf order. */
export const VU_OPTIONS = [
  ['vu', 'Virtual Users', '1'],
  ['delay', 'User Delay(ms)', '500'],
  ['repeat', 'Repeat Delay(ms)', '500'],
  ['iterations', 'Iterations', '1'],
  ['showoutput', 'Show Output', '1'],
  ['logtotemp', 'Log Output', '0'],
  ['unique', 'Unique Log Name', '0'],
  ['nobuff', 'No Log Buffer', '0'],
  ['timestamps', 'Log Timestamps', '0'],
] as const;
export type VuOption = (typeof VU_OPTIONS)[number][0];

/**
 * The "script" loaded: which database and driver it was generated for, and,
 * for customscript, the driver script's text (kept to print and save back;
 * its passwords are never printed).
 */
export interface LoadedScript {
  prefix: string;
  driver: 'test' | 'timed';
  custom?: { text: string; settings: [string, string][] };
}

/**
 * Virtual users as HammerDB's web service sees them. Sledge starts VUs inside
 * a job and ends them with it, so `vucreate` only records that VUs "exist";
 * VUs attached to a job exist while the job is active and keep their final
 * status for vustatus until vudestroy or the next job.
 */
export interface VuSet {
  count: number;
  monitor: boolean;
  jobId?: string;
}

/** The `jobs` verb's settings (HammerDB's generic commandline jobs_profile_id and jobsoutput). */
export interface JobsSettings {
  /** The profile id that following TPROC-C vurun jobs get (0: none). */
  profileId: number;
  /** `jobs format text|JSON` (HammerDB's default since 4.7: JSON, generic.xml jobsoutput). */
  format: 'text' | 'JSON';
}

/** datagenrun's default directory (dgset directory): <files root>/datagen, created by the job. */
export const defaultDatagenDir = (filesRoot: string) => join(filesRoot, 'datagen');

/**
 * One global session, like HammerDB's single web-service state: the current
 * database and benchmark, one dict per database, vuset/tcset/dgset settings,
 * the loaded "script" and the virtual users.
 */
export class HdbSession {
  prefix = 'ora';
  bm: Benchmark = 'TPC-C';
  readonly dicts = new Map<string, Dict>(DATABASES.map((d) => [d.prefix, defaultDict(d.prefix)]));
  readonly vu: Record<VuOption, string> = Object.fromEntries(VU_OPTIONS.map(([k, , v]) => [k, v])) as Record<VuOption, string>;
  /** generic transaction_counter section */
  readonly tc: Record<string, string> = { tc_refresh_rate: '10', tc_log_to_temp: '0', tc_unique_log_name: '0', tc_log_timestamps: '0' };
  /** generic datageneration section; files go under the server's files root (the data directory unless SLEDGE_FILES_ROOT), never the system temp directory */
  readonly dg: { warehouse: string; scale_fact: string; vu: string; directory: string };
  /**
   * Each password set in a dict ("<prefix>.<section>.<key>") -> the connection
   * fields it was set with (secret-binding.ts); a password never set is bound to nothing.
   */
  readonly bindings = new Map<string, Record<string, unknown>>();
  script: LoadedScript | null = null;
  vus: VuSet | null = null;
  /** generic metrics section (metset) and whether metstart turned CPU metrics on for following jobs */
  readonly metrics = { agent_hostname: 'localhost', agent_id: '10000' };
  metricsOn = false;
  /** tcstart turned the transaction counter on (tcstop off): HammerDB's counter thread runs until tcstop, sampling each run. Not saved: a restart stops it, as it stops HammerDB's thread. */
  tcOn = false;
  /** custommonitor: whether a custom script runs with a monitor VU (null: as the script's driver says) */
  customMonitor: boolean | null = null;
  /** generic keys stored as set by giset (the others are read from the settings above) */
  readonly generic: Record<string, Record<string, string>> = {};
  /** jobs profileid / jobs format. */
  readonly jobs: JobsSettings = { profileId: 0, format: 'JSON' };

  /** `filesRoot`: where datagenrun writes by default (<filesRoot>/datagen). */
  constructor(filesRoot: string) {
    this.dg = { warehouse: '1', scale_fact: '1', vu: '1', directory: defaultDatagenDir(filesRoot) };
  }

  get db(): HdbDatabase {
    return databaseByPrefix(this.prefix)!;
  }

  get dict(): Dict {
    return this.dicts.get(this.prefix)!;
  }

  /** The dict without the other workload's section (print dict, JOBMAIN.jobdict). */
  printableDict(): Dict {
    const d = this.dict;
    const other = this.bm === 'TPC-C' ? 'tpch' : 'tpcc';
    return Object.fromEntries(Object.entries(d).filter(([s]) => s !== other)) as Dict;
  }
}
