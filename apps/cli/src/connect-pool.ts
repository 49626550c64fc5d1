import { readFileSync } from 'node:fs';
import { parseConnectPoolXml, SledgeError, type EngineId } from '@sledge/protocol';

/**
 * --connect-pool FILE: a HammerDB connect pool file (config/connectpool/
 * <prefix>cpool.xml) read here and sent as target.pool, so its passwords go
 * only where the target's own password goes (the job body); the server checks
 * it like any pool. Keys Sledge has no setting for are named on stderr.
 */
export function connectPoolFromFile(file: string, engine: EngineId, warn: (line: string) => void = (l) => process.stderr.write(l + '\n')): Record<string, unknown> {
  let xml: string;
  try {
    xml = readFileSync(file, 'utf8');
  } catch (e) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `--connect-pool ${JSON.stringify(file)} cannot be read: ${e instanceof Error ? e.message : String(e)}`, { field: '--connect-pool' });
  }
  try {
    const got = parseConnectPoolXml(xml, engine);
    if (got.ignored.length) warn(`connect pool ${file}: ignored ${got.ignored.join(', ')}`);
    return got.pool as unknown as Record<string, unknown>;
  } catch (e) {
    if (SledgeError.is(e)) throw new SledgeError(e.code, `--connect-pool ${file}: ${e.message}`, { field: '--connect-pool' });
    throw e;
  }
}
