import { basename, dirname, extname, join, resolve } from 'node:path';

/** The files that make up a job store at `path` (all in its directory). */
export interface StoreFiles {
  /** The SQLite file (sledge.db). */
  db: string;
  /** SQLite's companions: -wal, -shm and a rollback -journal. */
  companions: string[];
  /** The one-writer lock (sledge.lock, a tiny SQLite file) and its journal. */
  lock: string;
  /** Space kept free for recording a failure when the disk fills up (sledge.reserve). */
  reserve: string;
  /** The default key that encrypts saved secrets (secret.key), when SLEDGE_SECRET_KEY is not set. */
  key: string;
}

export function storeFiles(path: string): StoreFiles {
  const db = resolve(path);
  const dir = dirname(db);
  const stem = basename(db, extname(db)) || basename(db);
  return {
    db,
    companions: [`${db}-wal`, `${db}-shm`, `${db}-journal`],
    lock: join(dir, `${stem}.lock`),
    reserve: join(dir, `${stem}.reserve`),
    key: join(dir, 'secret.key'),
  };
}

/** Every path a job store owns: nothing else (a SQLite target, a datagen directory) may be one of them. */
export function reservedPaths(path: string): string[] {
  const f = storeFiles(path);
  return [f.db, ...f.companions, f.lock, `${f.lock}-journal`, f.reserve, f.key];
}
