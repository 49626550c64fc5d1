import type { Logger, TprochLoader } from '@sledge/core';
import type { DuckdbTarget } from '@sledge/protocol';
import { StagingLoader, stagingDir } from '../engine/loader.js';

/**
 * TPROC-H loader on DuckDB: the engine's staging loader ('csv' bulk
 * format: '|'-separated lines, one file per unit and table); finishSchema
 * reads them in with one COPY per table.
 */
export function openTprochLoader(target: DuckdbTarget, _log: Logger): TprochLoader {
  return new StagingLoader(stagingDir(target));
}
