import type { TproccTarget } from '@sledge/core';
import type { PostgresqlTarget } from '@sledge/protocol';

/** A PostgreSQL target with the job's TPROC-C schema options (tablespace, storedProcs, partition): what the TPROC-C hooks get. */
export type PgTproccTarget = TproccTarget<PostgresqlTarget>;
