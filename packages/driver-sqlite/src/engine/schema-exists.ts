import { SledgeError, schemaExistsMessage } from '@sledge/protocol';

/**
 * A build refused because the file already holds tables: the message names
 * whose schema they are (protocol's schemaExistsMessage: a TPROC-C schema
 * found while building TPROC-H is called TPROC-C's) and what to do, with the
 * workload's own default file when it has one. `fileTables`: every table in
 * the file.
 */
export function schemaExistsError(file: string, building: string, fileTables: readonly string[]): SledgeError {
  return new SledgeError('SLEDGE_E_SCHEMA_EXISTS', schemaExistsMessage(file, building, 'sqlite', fileTables, 'target.file'), { field: 'target.file' });
}
