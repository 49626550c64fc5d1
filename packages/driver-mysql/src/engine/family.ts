import type { LoaderOptions } from './loader.js';

/** How a MySQL-family driver is made (tests vary these). */
export interface FamilyOptions {
  /** Loader sessions: announce LOCAL_FILES (default true). false exercises the INSERT fallback. */
  loader?: LoaderOptions;
  /** Longest afterRun purge wait (MariaDB target.purge); default PURGE_BOUND_MS. */
  purgeBoundMs?: number;
}
