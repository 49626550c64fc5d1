import { SledgeError, schemaExistsMessage } from '@sledge/protocol';

/** A build refused because the file already holds tables (as SQLite's: protocol's schemaExistsMessage names whose they are). */
export function schemaExistsError(file: string, building: string, fileTables: readonly string[]): SledgeError {
  return new SledgeError('SLEDGE_E_SCHEMA_EXISTS', schemaExistsMessage(file, building, 'duckdb', fileTables, 'target.file'), { field: 'target.file' });
}
