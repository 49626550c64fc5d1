import { SledgeError } from '@sledge/protocol';
import type { Db } from './db.js';
import { fromJson, toJson } from './json.js';
import { isSealed, type SecretBox } from './secrets.js';

/** The HammerDB session as stored: its settings (no passwords) and its passwords by name. */
export interface HammerdbSessionDoc {
  data: Record<string, unknown>;
  secrets: Record<string, string>;
}

/**
 * The HammerDB-compatible API's session, one row. Passwords are sealed one by
 * one (AES-256-GCM, the name authenticated) like saved configurations'
 * secrets; a password the current key cannot open is left out on read, and
 * the caller keeps its default.
 */
export class HammerdbSessionRepo {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
  ) {}

  save(doc: HammerdbSessionDoc): void {
    const sealed = Object.fromEntries(Object.entries(doc.secrets).map(([k, v]) => [k, this.box.seal(v, `hammerdb.${k}`)]));
    this.db
      .prepare(
        `INSERT INTO hammerdb_session (id, data, secrets, updated_at) VALUES (1, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET data = excluded.data, secrets = excluded.secrets, updated_at = excluded.updated_at`,
      )
      .run(toJson(doc.data, 'data'), toJson(sealed, 'secrets'), new Date().toISOString());
  }

  /** The stored session, or undefined when none was saved; `unreadable` names passwords the key did not open. */
  load(): (HammerdbSessionDoc & { unreadable: string[] }) | undefined {
    const row = this.db.prepare('SELECT data, secrets FROM hammerdb_session WHERE id = 1').get() as { data: string; secrets: string } | undefined;
    if (!row) return undefined;
    const secrets: Record<string, string> = {};
    const unreadable: string[] = [];
    for (const [k, v] of Object.entries(fromJson<Record<string, string>>(row.secrets))) {
      if (!isSealed(v)) continue;
      try {
        secrets[k] = this.box.open(v, `hammerdb.${k}`, k);
      } catch (e) {
        if (!SledgeError.is(e)) throw e;
        unreadable.push(k);
      }
    }
    return { data: fromJson<Record<string, unknown>>(row.data), secrets, unreadable };
  }
}
