import {
  REDACTED,
  SledgeError,
  isEngineId,
  deprecatedSavedFields,
  isSecretKey,
  normalizeSavedConfig,
  parseSavedConfig,
  parseTarget,
  redact,
  secretBindingMismatch,
  fillPoolSecrets,
  assertPoolInheritance,
  secretFields,
  type SavedConfig,
  type SavedConfigInput,
  type SavedConfigParsed,
  type Target,
} from '@sledge/protocol';
import { inTransaction, type Db } from './db.js';
import { requireInteger } from './check.js';
import { fromJson, toJson } from './json.js';
import { isSealed, type SecretBox } from './secrets.js';

interface ConfigRow {
  id: number;
  name: string;
  target: string;
  workload: string;
  options: string;
  created_at: string;
  updated_at: string;
}

const isSecret = (target: Target, key: string): boolean => isSecretKey(key) || secretFields(target.engine).includes(key);

/** The target with defaults filled (for comparing bound fields), or the raw object when it does not parse yet. */
function parseTargetLoose(t: Record<string, unknown>): Record<string, unknown> {
  try {
    return parseTarget(t, 'target') as unknown as Record<string, unknown>;
  } catch {
    return t;
  }
}

/**
 * Validate a saved configuration (protocol's parseSavedConfig: today's shape
 * or the older { name, target, tprocc }, defaults filled as the job form
 * would) after secrets were restored.
 */
function clean(input: unknown, restore?: (target: Record<string, unknown>) => Record<string, unknown>): SavedConfigParsed {
  const c = parseSavedConfig(input, restore);
  for (const [k, v] of Object.entries(c.target)) {
    if (v === REDACTED && isSecret(c.target, k)) {
      throw new SledgeError('SLEDGE_E_VALIDATION', `target.${k} is the placeholder "${REDACTED}" and no stored value exists to keep: enter the real value`, { field: `target.${k}` });
    }
  }
  return c;
}

/** The target's secret fields that hold a value (empty strings are not secrets). */
function secretEntries(t: Record<string, unknown>): [string, string][] {
  const extra = secretFieldsOf(t['engine']);
  return Object.entries(t).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '' && (isSecretKey(e[0]) || extra.includes(e[0])));
}

/** A target with each secret of its connect pool's connections (target.pool.connections.N.password ...) mapped by `f`. */
function poolSecrets(t: Record<string, unknown>, f: (c: Record<string, unknown>, key: string, value: string, field: string) => string): Record<string, unknown> {
  const pool = t['pool'] as { connections?: Record<string, unknown>[] } | undefined;
  if (!pool?.connections) return t;
  const connections = pool.connections.map((c, i) => {
    const out = { ...c };
    for (const [k, v] of secretEntries({ ...c, engine: t['engine'] })) if (k !== 'engine') out[k] = f(c, k, v, `target.pool.connections.${i}.${k}`);
    return out;
  });
  return { ...t, pool: { ...pool, connections } };
}

/**
 * Saved configurations: (target, workload, options). Targets are stored with their secrets encrypted
 * (AES-256-GCM, see secrets.ts; the key is kept outside the store file);
 * every read redacts them unless asked otherwise, and an update that sends
 * "********" for a secret keeps the stored value.
 */
export class ConfigsRepo {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
  ) {}

  /** Encrypt every secret still stored in plain text (a store written before encryption). Returns how many configurations changed. */
  sealPlainSecrets(): number {
    return inTransaction(this.db, () => {
      let changed = 0;
      for (const r of this.db.prepare('SELECT id, target FROM saved_config').all() as { id: number; target: string }[]) {
        const t = fromJson<Record<string, unknown>>(r.target);
        const pooled = ((t['pool'] as { connections?: Record<string, unknown>[] } | undefined)?.connections ?? []).flatMap((c) => secretEntries({ ...c, engine: t['engine'] }));
        const plain = [...secretEntries(t), ...pooled].filter(([, v]) => !isSealed(v));
        if (!plain.length) continue;
        this.db.prepare('UPDATE saved_config SET target = ? WHERE id = ?').run(toJson(this.sealed(t), 'target'), r.id);
        changed++;
      }
      return changed;
    });
  }

  private sealed(t: Record<string, unknown>): Record<string, unknown> {
    const out = { ...t };
    for (const [k, v] of secretEntries(t)) if (!isSealed(v)) out[k] = this.box.seal(v, `target.${k}`);
    return poolSecrets(out, (c, k, v, f) => (isSealed(v) ? v : this.box.seal(v, f)));
  }

  private opened(t: Record<string, unknown>): Record<string, unknown> {
    const out = { ...t };
    for (const [k, v] of secretEntries(t)) if (isSealed(v)) out[k] = this.box.open(v, `target.${k}`, `target.${k}`);
    return poolSecrets(out, (c, k, v, f) => (isSealed(v) ? this.box.open(v, f, f) : v));
  }

  save(input: SavedConfigInput): SavedConfig {
    const c = clean(input);
    const now = new Date().toISOString();
    const id = inTransaction(this.db, () => {
      this.assertNameFree(c.name, undefined);
      return Number(
        this.db
          .prepare('INSERT INTO saved_config (name, target, workload, options, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
          .run(c.name, toJson(this.sealed(c.target as unknown as Record<string, unknown>), 'target'), c.workload, toJson(c.options, 'options'), now, now).lastInsertRowid,
      );
    });
    return this.require(id, false);
  }

  update(id: number, input: SavedConfigInput): SavedConfig {
    requireInteger(id, 'id', 1);
    inTransaction(this.db, () => {
      const stored = this.row(id);
      if (!stored) throw notFoundConfig(id);
      const prev = fromJson<Record<string, unknown>>(stored.target);
      const c = clean(input, (t) => {
        const given = parseTargetLoose(t);
        const kept: string[] = [];
        for (const [k, v] of Object.entries(t)) {
          if (v !== REDACTED || !(isSecretKey(k) || secretFieldsOf(t['engine']).includes(k)) || prev[k] === undefined) continue;
          // A kept secret stays bound to the endpoint and user it was saved for.
          const differs = secretBindingMismatch(prev, given, k);
          if (differs.length) {
            throw new SledgeError('SLEDGE_E_VALIDATION', `target.${k} is "${REDACTED}" but ${differs.join(', ')} changed: a saved secret goes only where it was saved for; type the secret`, {
              field: `target.${k}`,
            });
          }
          t[k] = isSealed(prev[k]) ? this.box.open(prev[k], `target.${k}`, `target.${k}`) : prev[k];
          kept.push(k);
        }
        // Kept secrets of pool connections too, each bound to its connection's endpoint and user.
        fillPoolSecrets(prev, t, (v, f) => (isSealed(v) ? this.box.open(v, f, f) : v), 'the saved configuration');
        // A pool connection pointed elsewhere does not inherit a kept secret (unless the configuration already sent it there).
        assertPoolInheritance(parseTargetLoose(t), kept, prev, 'the saved configuration');
        return t;
      });
      this.assertNameFree(c.name, id);
      this.db
        .prepare('UPDATE saved_config SET name = ?, target = ?, workload = ?, options = ?, updated_at = ? WHERE id = ?')
        .run(c.name, toJson(this.sealed(c.target as unknown as Record<string, unknown>), 'target'), c.workload, toJson(c.options, 'options'), new Date().toISOString(), id);
    });
    return this.require(id, false);
  }

  /** Every saved configuration, secrets redacted, by name. */
  list(): SavedConfig[] {
    const rows = this.db.prepare('SELECT * FROM saved_config ORDER BY name, id').all() as ConfigRow[];
    return rows.map((r) => toConfig(r, false));
  }

  /** One configuration; withSecrets decrypts them (SLEDGE_E_SECRET_UNREADABLE on the field when the key cannot). */
  get(id: number, opts: { withSecrets?: boolean } = {}): SavedConfig | undefined {
    const row = this.row(id);
    if (row === undefined) return undefined;
    if (opts.withSecrets !== true) return toConfig(row, false);
    return toConfig({ ...row, target: JSON.stringify(this.opened(fromJson<Record<string, unknown>>(row.target))) }, true);
  }

  delete(id: number): boolean {
    return this.db.prepare('DELETE FROM saved_config WHERE id = ?').run(id).changes > 0;
  }

  private row(id: number): ConfigRow | undefined {
    return this.db.prepare('SELECT * FROM saved_config WHERE id = ?').get(id) as ConfigRow | undefined;
  }

  private require(id: number, withSecrets: boolean): SavedConfig {
    const c = this.get(id, { withSecrets });
    if (!c) throw notFoundConfig(id);
    return c;
  }

  private assertNameFree(name: string, exceptId: number | undefined): void {
    const other = this.db.prepare('SELECT id FROM saved_config WHERE name = ? AND id IS NOT ?').get(name, exceptId ?? null) as { id: number } | undefined;
    if (other) {
      throw new SledgeError('SLEDGE_E_CONFLICT', `a saved configuration named "${name}" already exists (id ${other.id}): choose another name`, { field: 'name' });
    }
  }
}

/** An engine's x-secret field names; none for a value that is not a known engine. */
function secretFieldsOf(engine: unknown): string[] {
  return isEngineId(engine) ? secretFields(engine) : [];
}

function notFoundConfig(id: number): SledgeError {
  return new SledgeError('SLEDGE_E_NOT_FOUND', `saved configuration ${id} does not exist`, { field: 'id' });
}

function toConfig(r: ConfigRow, withSecrets: boolean): SavedConfig {
  // One saved in an older shape (TPROC-C schema options in the target) reads in today's.
  const n = normalizeSavedConfig(r.workload, fromJson<unknown>(r.target), fromJson<unknown>(r.options));
  const target = n.target as Target;
  const options = withSecrets ? n.options : redact(n.options);
  return {
    id: r.id,
    name: r.name,
    target: withSecrets ? target : redact(target, secretFieldsOf(target.engine)),
    workload: r.workload,
    options,
    ...deprecatedSavedFields(r.workload, options),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
