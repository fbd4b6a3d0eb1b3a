/**
 * The example's avatar storage: a local filesystem bucket named `avatars`
 * whose writes reach the objectstore triggers, and the SQLite table where the
 * `avatar-uploaded` trigger records each upload's size.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createLocalBucket, type LocalBucket, type ObjectStoreRuntime } from '@framework/trigger';

/** One recorded upload. `size` is in bytes. */
export interface AvatarUpload {
  key: string;
  size: number;
  recordedAt: Date;
}

/** The uploads table. */
export interface AvatarUploadLog {
  record(upload: { key: string; size: number }): void;
  /** Newest first, at most 100. */
  list(): AvatarUpload[];
  close(): void;
}

/** Opens (and creates) the `avatar_uploads` table in the SQLite file `filename` (`':memory:'` for tests). */
export function createAvatarUploadLog(filename: string): AvatarUploadLog {
  if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
  const db = new Database(filename);
  db.exec(`CREATE TABLE IF NOT EXISTS avatar_uploads (
    id INTEGER PRIMARY KEY AUTOINCREMENT, object_key TEXT NOT NULL, size INTEGER NOT NULL, recorded_at INTEGER NOT NULL)`);
  const insert = db.prepare('INSERT INTO avatar_uploads (object_key, size, recorded_at) VALUES (?, ?, ?)');
  const select = db.prepare('SELECT object_key, size, recorded_at FROM avatar_uploads ORDER BY id DESC LIMIT 100');
  return {
    record: (upload) => void insert.run(upload.key, upload.size, Date.now()),
    list: () =>
      (select.all() as Array<{ object_key: string; size: number; recorded_at: number }>).map((r) => ({
        key: r.object_key,
        size: r.size,
        recordedAt: new Date(r.recorded_at),
      })),
    close: () => db.close(),
  };
}

/** The `avatars` bucket in `dir`; keys such as `users/42.png`. */
export function createExampleBucket(dir: string, runtime: ObjectStoreRuntime): LocalBucket {
  return createLocalBucket(dir, runtime, { name: 'avatars' });
}
