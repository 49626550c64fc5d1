import { SledgeError } from '../errors.js';
import type { EngineId } from '../engines.js';
import { TARGET_SCHEMAS } from '../targets.js';
import { Problems, show, validate } from '../validate.js';
import { poolConnectionTarget, type ConnectPool } from './pool.js';

/** The fields a pool connection may override: the engine's connection settings (x-group 'connection'). */
export function poolOverridableFields(engine: EngineId): string[] {
  const props = (TARGET_SCHEMAS[engine] as unknown as { properties: Record<string, Record<string, unknown>> }).properties;
  return Object.entries(props)
    .filter(([k, s]) => k !== 'engine' && k !== 'pool' && s['x-group'] === 'connection')
    .map(([k]) => k);
}

/**
 * The checks of a target's pool that its schema cannot express: connection
 * names unique, each override one of the engine's connection settings and
 * valid as that setting, every name an operation lists defined. Every fault
 * is reported at once, each with its field path (target.pool.connections.1.port).
 */
export function checkPool(engine: EngineId, target: Record<string, unknown>, prefix = 'target'): void {
  const pool = target['pool'] as ConnectPool | undefined;
  if (!pool) return;
  const p = new Problems();
  const at = `${prefix}.pool`;
  const allowed = new Set(poolOverridableFields(engine));
  const seen = new Map<string, number>();
  pool.connections.forEach((c, i) => {
    const f = `${at}.connections.${i}`;
    const had = seen.get(c.name);
    if (had !== undefined) p.add(`${f}.name`, `${f}.name ${show(c.name)} is already the name of ${at}.connections.${had}: pool connection names must be unique`);
    else seen.set(c.name, i);
    const bad = Object.keys(c).filter((k) => k !== 'name' && !allowed.has(k));
    for (const k of bad) p.add(`${f}.${k}`, `${f}.${k} is not a connection setting of a ${engine} target: a pool connection overrides only ${[...allowed].join(', ')}`);
    if (bad.length) return;
    p.check(() => validate(TARGET_SCHEMAS[engine], poolConnectionTarget(target, c), f));
    for (const [k, v] of Object.entries(c)) {
      if (typeof v === 'string' && v.includes('\0')) p.add(`${f}.${k}`, `${f}.${k} must not contain a NUL character (\\u0000)`);
    }
  });
  for (const [op, r] of Object.entries(pool.ops ?? {})) {
    r.connections.forEach((n, j) => {
      if (!seen.has(n)) {
        p.add(`${at}.ops.${op}.connections.${j}`, `${at}.ops.${op}.connections.${j} ${show(n)} is not a pool connection: one of ${[...seen.keys()].join(', ')}`);
      }
    });
  }
  p.throwIfAny();
}

/** The operations a pool routes must be the workload's (`operations`, e.g. TPROC-C's five transactions). */
export function checkPoolOps(pool: ConnectPool | undefined, operations: readonly string[], workload: string, prefix = 'target'): void {
  if (!pool?.ops) return;
  const unknown = Object.keys(pool.ops).filter((op) => !operations.includes(op));
  if (unknown.length) {
    throw SledgeError.ofFields(
      'SLEDGE_E_VALIDATION',
      unknown.map((op) => ({ field: `${prefix}.pool.ops.${op}`, message: `${prefix}.pool.ops.${op}: ${show(op)} is not an operation of ${workload}; one of ${operations.join(', ')}` })),
    );
  }
}
