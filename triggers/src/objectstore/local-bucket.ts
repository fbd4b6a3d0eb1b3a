import { createHash } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { TriggerError } from '../errors.js';

/** The part of a runtime a local bucket uses. */
export interface ObjectStoreRuntime {
  dispatchObjectNotification(body: unknown): Promise<unknown>;
}

/** Options of {@link createLocalBucket}. */
export interface LocalBucketOptions {
  /** The bucket name events carry (match it in `source.bucket`). Default: the directory's base name. */
  name?: string;
}

/**
 * An object's metadata. `size` is in bytes; `etag` is the hex MD5 of the content, like S3's for single-part
 * uploads.
 */
export interface LocalObjectInfo {
  key: string;
  size: number;
  etag: string;
  uploadedAt: Date;
}

/** An object with its content. */
export interface LocalObject extends LocalObjectInfo {
  body: Uint8Array;
}

/** A bucket on the local filesystem for development. */
export interface LocalBucket {
  readonly name: string;
  /** Absolute path of the directory. */
  readonly dir: string;
  /** Writes (or replaces) an object and emits `object:create:put`. */
  put(key: string, body: Uint8Array | string): Promise<LocalObjectInfo>;
  /** Copies an object and emits `object:create:copy`; `null` when `from` does not exist. */
  copy(from: string, to: string): Promise<LocalObjectInfo | null>;
  /** Reads an object; `null` when it does not exist. */
  get(key: string): Promise<LocalObject | null>;
  /** Deletes an object and emits `object:delete`; `false` when it did not exist. */
  delete(key: string): Promise<boolean>;
  /** Objects whose keys start with `prefix`, sorted by key. */
  list(options?: { prefix?: string }): Promise<LocalObjectInfo[]>;
}

function invalidKey(key: string, reason: string): TriggerError {
  return new TriggerError(`Invalid object key '${key}': ${reason}`, {
    code: 'OBJECTSTORE_INVALID_KEY',
    retryable: false,
    context: { key },
  });
}

/** Longest key in UTF-8 bytes (S3's limit). */
const MAX_KEY_BYTES = 1024;
/** Longest segment in UTF-8 bytes (a file name on common filesystems). */
const MAX_SEGMENT_BYTES = 255;
const utf8Length = (text: string) => new TextEncoder().encode(text).byteLength;

/**
 * The file of `key` inside `root`, checked as text: a non-empty `/`-separated
 * relative path of at most 1024 UTF-8 bytes, without NUL, backslashes, empty,
 * `.` or `..` segments, each segment at most 255 bytes. `..foo` is a name like
 * any other. {@link createLocalBucket} also refuses symbolic links on the way.
 *
 * @throws {TriggerError} code `OBJECTSTORE_INVALID_KEY`
 */
export function objectPath(root: string, key: string): string {
  if (typeof key !== 'string' || key === '') throw invalidKey(String(key), 'expected a non-empty string');
  if (key.includes('\0')) throw invalidKey(key, 'contains a NUL character');
  if (key.includes('\\')) throw invalidKey(key, 'contains a backslash; use "/" between segments');
  if (key.startsWith('/') || isAbsolute(key) || /^[A-Za-z]:/.test(key))
    throw invalidKey(key, 'absolute paths are not keys');
  if (utf8Length(key) > MAX_KEY_BYTES) throw invalidKey(key, `longer than ${MAX_KEY_BYTES} bytes`);
  const segments = key.split('/');
  if (segments.some((s) => s === '..' || s === '.')) throw invalidKey(key, '"." and ".." segments are not allowed');
  if (segments.some((s) => s === '')) throw invalidKey(key, 'empty segments ("//" or a trailing "/") are not allowed');
  if (segments.some((s) => utf8Length(s) > MAX_SEGMENT_BYTES))
    throw invalidKey(key, `a segment is longer than ${MAX_SEGMENT_BYTES} bytes`);
  const file = resolve(root, ...segments);
  const inside = relative(root, file);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    throw invalidKey(key, 'resolves outside the bucket directory');
  }
  return file;
}

/**
 * {@link objectPath}, then a walk from `root` down the key with `lstat`:
 * refuses a symbolic link anywhere below `root` (so nothing escapes the
 * directory through one) and a prefix that is an object (`a` when writing
 * `a/b`). Returns the file and its stats, `null` when it does not exist yet.
 */
async function confinedPath(root: string, key: string): Promise<{ file: string; stats: Stats | null }> {
  const file = objectPath(root, key);
  const segments = key.split('/');
  let current = root;
  for (let i = 0; i < segments.length; i++) {
    current = join(current, segments[i]!);
    let stats: Stats;
    try {
      stats = await lstat(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { file, stats: null };
      throw asKeyError(error, key);
    }
    if (stats.isSymbolicLink()) throw invalidKey(key, 'goes through a symbolic link');
    if (i < segments.length - 1 && !stats.isDirectory()) {
      throw invalidKey(key, `'${segments.slice(0, i + 1).join('/')}' is an object, so it cannot hold other keys`);
    }
    if (i === segments.length - 1) return { file, stats };
  }
  return { file, stats: null };
}

/** Filesystem errors that a key causes become `OBJECTSTORE_INVALID_KEY`; others pass through. */
function asKeyError(error: unknown, key: string): unknown {
  const reason = KEY_ERRNO[(error as NodeJS.ErrnoException)?.code ?? ''];
  return reason ? invalidKey(key, reason) : error;
}

const KEY_ERRNO: Record<string, string> = {
  EEXIST: 'a prefix of the key is an object',
  ENOTDIR: 'a prefix of the key is an object',
  EISDIR: 'the key is a prefix of other keys',
  ENAMETOOLONG: 'the path is too long for the filesystem',
  ELOOP: 'goes through a symbolic link',
};

/** Opening flags that refuse a symbolic link as the last component (where the platform has O_NOFOLLOW). */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');
const encodeKey = (key: string) => encodeURIComponent(key).replace(/%2F/g, '/').replace(/%20/g, '+');

/**
 * A bucket in `dir` with `put`, `copy`, `get`, `delete` and `list`, emitting
 * the same S3 event notifications a cloud bucket would (records shaped like
 * AWS's, keys URL-encoded), which `runtime.dispatchObjectNotification`
 * delivers to the objectstore triggers of `name` in the background (with
 * their retries; failures are logged by the runtime; `runtime.drain()` waits).
 *
 * Keys are `/`-separated relative paths confined to `dir`: absolute paths,
 * `.`/`..` and empty segments, backslashes, NUL, keys over 1024 bytes and
 * segments over 255 bytes are rejected; so is a key whose path goes through a
 * symbolic link inside `dir` (checked with `lstat` on every segment, and
 * files are opened with `O_NOFOLLOW`), and a key that collides with the
 * file/directory layout (`a` already an object when writing `a/b`, or `a`
 * when `a/b` exists). It is a development tool: the checks do not guard
 * against another process swapping directories for links while it runs.
 *
 * @throws {TriggerError} code `OBJECTSTORE_INVALID_KEY` from every method for a bad key
 * @example
 * ```ts
 * const avatars = createLocalBucket('.data/avatars', runtime, { name: 'avatars' });
 * await avatars.put('users/42.png', bytes); // → object:create:put for triggers on bucket 'avatars'
 * ```
 */
export function createLocalBucket(
  dir: string,
  runtime: ObjectStoreRuntime,
  options: LocalBucketOptions = {},
): LocalBucket {
  const root = resolve(dir);
  const name = options.name ?? basename(root);

  function emit(eventName: string, info: LocalObjectInfo): void {
    const record = {
      eventVersion: '2.1',
      eventSource: 'aws:s3',
      awsRegion: 'local',
      eventTime: info.uploadedAt.toISOString(),
      eventName,
      s3: {
        s3SchemaVersion: '1.0',
        bucket: { name, arn: `arn:aws:s3:::${name}` },
        object: {
          key: encodeKey(info.key),
          ...(eventName.startsWith('ObjectRemoved') ? {} : { size: info.size, eTag: info.etag }),
        },
      },
    };
    // Delivery runs in the background like a cloud notification; the runtime logs failures.
    runtime.dispatchObjectNotification({ Records: [record] }).catch(() => {});
  }

  async function info(
    key: string,
    file: string,
    stats: Stats | null,
    bytes?: Uint8Array,
  ): Promise<LocalObjectInfo | null> {
    if (!stats?.isFile()) return null;
    return {
      key,
      size: stats.size,
      etag: md5(bytes ?? (await readFile(file, { flag: constants.O_RDONLY | NOFOLLOW }))),
      uploadedAt: stats.mtime,
    };
  }

  async function write(key: string, bytes: Uint8Array, eventName: string): Promise<LocalObjectInfo> {
    const { file } = await confinedPath(root, key);
    try {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, bytes, { flag: constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NOFOLLOW });
    } catch (error) {
      throw asKeyError(error, key);
    }
    const written = (await info(key, file, await lstat(file), bytes))!;
    emit(eventName, written);
    return written;
  }

  async function walk(directory: string): Promise<string[]> {
    const entries = await readdir(directory, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    const files = await Promise.all(
      entries.map((entry) => {
        const full = join(directory, entry.name);
        return entry.isDirectory() ? walk(full) : entry.isFile() ? Promise.resolve([full]) : Promise.resolve([]);
      }),
    );
    return files.flat();
  }

  return {
    name,
    dir: root,
    put: (key, body) =>
      write(key, typeof body === 'string' ? new TextEncoder().encode(body) : body, 'ObjectCreated:Put'),
    async copy(from, to) {
      const source = await this.get(from);
      return source ? write(to, source.body, 'ObjectCreated:Copy') : null;
    },
    async get(key) {
      const { file, stats } = await confinedPath(root, key);
      if (!stats?.isFile()) return null;
      try {
        const body = new Uint8Array(await readFile(file, { flag: constants.O_RDONLY | NOFOLLOW }));
        return { ...(await info(key, file, stats, body))!, body };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw asKeyError(error, key);
      }
    },
    async delete(key) {
      const { file, stats } = await confinedPath(root, key);
      const existing = await info(key, file, stats);
      if (!existing) return false;
      await rm(file);
      emit('ObjectRemoved:Delete', { ...existing, uploadedAt: new Date() });
      return true;
    },
    async list(listOptions = {}) {
      const prefix = listOptions.prefix ?? '';
      const keys = (await walk(root)).map((file) => relative(root, file).split(sep).join('/'));
      const wanted = keys.filter((key) => key.startsWith(prefix)).sort();
      const infos = await Promise.all(
        wanted.map(async (key) => {
          const { file, stats } = await confinedPath(root, key).catch(() => ({ file: '', stats: null }));
          return info(key, file, stats);
        }),
      );
      return infos.filter((i): i is LocalObjectInfo => i !== null);
    },
  };
}
