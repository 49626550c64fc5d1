import { existsSync, mkdirSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { SledgeError, type DuckdbTarget } from '@sledge/protocol';
import { api, type Connection, type Instance } from './library.js';

/** The in-memory database: one per thread, alive while a session of this thread holds it. */
export const MEMORY = ':memory:';

/** target.file made absolute against the working directory; ':memory:' stays as it is. */
export function resolveFile(target: DuckdbTarget): string {
  if (target.file === MEMORY) return MEMORY;
  return isAbsolute(target.file) ? target.file : resolve(process.cwd(), target.file);
}

/** DuckDB's write-ahead log beside the file. */
export function companionFiles(file: string): string[] {
  return file === MEMORY ? [] : [`${file}.wal`];
}

/**
 * One DuckDB database per file per thread. A DuckDB file may be opened by
 * one process only (DuckDB locks it), and two instances on one file in one
 * process do not see each other's data, so every session of a thread on a
 * file shares one instance (a connection each), counted here: the instance
 * closes when the last session closes. Worker threads never open a file
 * another thread has open: TPROC-H's loaders stage files instead
 * (tproch/loader.ts), and the server's admin and query streams all run on
 * its main thread.
 */
interface Entry {
  instance: Promise<Instance>;
  refs: number;
}
const databases = new Map<string, Entry>();

function osReason(e: unknown): string {
  return e instanceof Error ? e.message.split('\n')[0]! : String(e);
}

function connectError(file: string, e: unknown): SledgeError {
  const reason = osReason(e);
  const fix = /lock/i.test(reason)
    ? 'Another process has the file open (DuckDB lets one process write a file): stop it or set target.file to another path.'
    : /not a valid DuckDB database|database file|Corrupt/i.test(reason)
      ? 'It is not a DuckDB database (or another version wrote it): set target.file to another path.'
      : 'Set target.file to a path in a directory Sledge can create and write.';
  return new SledgeError('SLEDGE_E_CONNECT', `Cannot open the DuckDB database ${file} (${reason}). ${fix}`, { field: 'target.file', cause: e });
}

/** A connection to the target's database and the hold it keeps on the instance. */
export interface Handle {
  readonly file: string;
  readonly conn: Connection;
  /** Close the connection; the last one closes the instance (and writes the file). Idempotent. */
  release(): void;
}

async function instanceFor(file: string, target: DuckdbTarget): Promise<Entry> {
  let entry = databases.get(file);
  if (!entry) {
    const options: Record<string, string> = {};
    if (target.memoryLimit !== undefined) options['memory_limit'] = target.memoryLimit;
    const instance = api().DuckDBInstance.create(file, options);
    entry = { instance, refs: 0 };
    databases.set(file, entry);
    instance.catch(() => {
      if (databases.get(file) === entry) databases.delete(file);
    });
  }
  entry.refs++;
  return entry;
}

function drop(file: string, entry: Entry, instance: Instance | undefined): void {
  entry.refs--;
  if (entry.refs > 0) return;
  if (databases.get(file) === entry) databases.delete(file);
  instance?.closeSync();
}

/**
 * Open a connection. `create`: make the file (and its directory) when it is
 * missing (schema builds); otherwise a missing file is
 * SLEDGE_E_SCHEMA_MISSING: build the schema first.
 */
export async function connect(target: DuckdbTarget, mode: 'create' | 'existing'): Promise<Handle> {
  const file = resolveFile(target);
  if (file !== MEMORY) {
    if (mode === 'existing' && !existsSync(file)) {
      throw new SledgeError('SLEDGE_E_SCHEMA_MISSING', `There is no DuckDB database at ${file}: build the schema first.`, { field: 'target.file' });
    }
    try {
      mkdirSync(dirname(file), { recursive: true });
    } catch (e) {
      throw connectError(file, e);
    }
  }
  const entry = await instanceFor(file, target);
  let instance: Instance | undefined;
  try {
    instance = await entry.instance;
    const conn = await instance.connect();
    let released = false;
    return {
      file,
      conn,
      release: () => {
        if (released) return;
        released = true;
        conn.closeSync();
        drop(file, entry, instance);
      },
    };
  } catch (e) {
    drop(file, entry, instance);
    throw SledgeError.is(e) ? e : connectError(file, e);
  }
}

/** Whether a thread of this process holds the file open now (this thread's sessions only). */
export function isOpenHere(file: string): boolean {
  return databases.has(file);
}
