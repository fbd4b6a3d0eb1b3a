import { mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { defineTrigger } from '../define.js';
import { createTriggerRuntime } from '../runtime/create.js';
import type { ObjectStoreEvent } from '../types.js';
import { createLocalBucket } from './local-bucket.js';

describe('createLocalBucket', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  async function setup() {
    const dir = await mkdtemp(join(tmpdir(), 'bucket-'));
    dirs.push(dir);
    const seen: Array<[string, ObjectStoreEvent]> = [];
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        creates: defineTrigger({
          source: { type: 'objectstore', bucket: 'avatars', events: ['object:create'] },
          handle: (event) => void seen.push(['create', event]),
        }),
        deletes: defineTrigger({
          source: { type: 'objectstore', bucket: 'avatars', events: ['object:delete'], prefix: 'users/' },
          handle: (event) => void seen.push(['delete', event]),
        }),
      },
    });
    return { bucket: createLocalBucket(dir, runtime, { name: 'avatars' }), runtime, seen };
  }

  it('puts, gets, copies, lists and deletes objects, emitting the same events as a cloud bucket', async () => {
    const { bucket, runtime, seen } = await setup();
    const put = await bucket.put('users/ada lovelace.png', new Uint8Array([1, 2, 3]));
    expect(put).toMatchObject({ key: 'users/ada lovelace.png', size: 3, etag: '5289df737df57326fcdd22597afb1fac' });
    expect((await bucket.get('users/ada lovelace.png'))?.body).toEqual(new Uint8Array([1, 2, 3]));
    expect(await bucket.get('missing.png')).toBeNull();
    await bucket.copy('users/ada lovelace.png', 'backup/ada.png');
    expect((await bucket.list()).map((o) => o.key)).toEqual(['backup/ada.png', 'users/ada lovelace.png']);
    expect((await bucket.list({ prefix: 'users/' })).map((o) => o.key)).toEqual(['users/ada lovelace.png']);
    expect(await bucket.delete('users/ada lovelace.png')).toBe(true);
    expect(await bucket.delete('users/ada lovelace.png')).toBe(false);
    await runtime.drain();
    expect(seen.map(([kind, e]) => [kind, e.bucket, e.action, e.object.key, e.object.size])).toEqual([
      ['create', 'avatars', 'create', 'users/ada lovelace.png', 3],
      ['create', 'avatars', 'create', 'backup/ada.png', 3],
      ['delete', 'avatars', 'delete', 'users/ada lovelace.png', 0],
    ]);
    expect(seen[0]![1].object.uploadedAt).toBeInstanceOf(Date);
  });

  it('confines keys to its directory', async () => {
    const { bucket } = await setup();
    for (const key of [
      '../escape.txt',
      'a/../../escape.txt',
      '/etc/passwd',
      'C:/x',
      'a\\b',
      'a//b',
      './a',
      '',
      'nul\0byte',
    ]) {
      await expect(bucket.put(key, 'x'), key).rejects.toMatchObject({ code: 'OBJECTSTORE_INVALID_KEY' });
      await expect(bucket.get(key), key).rejects.toMatchObject({ code: 'OBJECTSTORE_INVALID_KEY' });
    }
    expect(await bucket.list()).toEqual([]);
  });

  it('takes keys whose segments merely start with dots', async () => {
    const { bucket } = await setup();
    for (const key of ['..foo', 'a/..b', '...', '.hidden', 'a/b..', '..a/..b/..c']) {
      await bucket.put(key, key);
      expect(new TextDecoder().decode((await bucket.get(key))!.body), key).toBe(key);
    }
    expect((await bucket.list()).map((o) => o.key)).toEqual([
      '...',
      '..a/..b/..c',
      '..foo',
      '.hidden',
      'a/..b',
      'a/b..',
    ]);
  });

  it('refuses keys that collide with the layout or the filesystem limits with OBJECTSTORE_INVALID_KEY', async () => {
    const { bucket } = await setup();
    await bucket.put('a', 'file');
    await expect(bucket.put('a/b', 'x')).rejects.toMatchObject({ code: 'OBJECTSTORE_INVALID_KEY' });
    await expect(bucket.put('a/b/c', 'x')).rejects.toMatchObject({ code: 'OBJECTSTORE_INVALID_KEY' });
    await bucket.put('d/e', 'nested');
    await expect(bucket.put('d', 'x')).rejects.toMatchObject({ code: 'OBJECTSTORE_INVALID_KEY' });
    expect(await bucket.get('d')).toBeNull();
    expect(await bucket.delete('d')).toBe(false);
    for (const key of ['k'.repeat(300), `dir/${'é'.repeat(128)}`, Array.from({ length: 260 }, () => 'abc').join('/')]) {
      await expect(bucket.put(key, 'x'), key.slice(0, 20)).rejects.toMatchObject({ code: 'OBJECTSTORE_INVALID_KEY' });
      await expect(bucket.get(key), key.slice(0, 20)).rejects.toMatchObject({ code: 'OBJECTSTORE_INVALID_KEY' });
    }
    expect((await bucket.list()).map((o) => o.key)).toEqual(['a', 'd/e']);
  });

  it('refuses to follow symbolic links inside the bucket, for every operation', async () => {
    const { bucket } = await setup();
    const outside = await mkdtemp(join(tmpdir(), 'bucket-outside-'));
    dirs.push(outside);
    await writeFile(join(outside, 'secret.txt'), 'secret');
    await symlink(outside, join(bucket.dir, 'linkdir'));
    await symlink(join(outside, 'secret.txt'), join(bucket.dir, 'linkfile'));
    await mkdir(join(bucket.dir, 'real'));
    await symlink(outside, join(bucket.dir, 'real', 'deeper'));
    for (const key of ['linkdir/x.txt', 'linkdir/secret.txt', 'linkfile', 'real/deeper/new/x.txt']) {
      await expect(bucket.put(key, 'pwned'), key).rejects.toMatchObject({ code: 'OBJECTSTORE_INVALID_KEY' });
      await expect(bucket.get(key), key).rejects.toMatchObject({ code: 'OBJECTSTORE_INVALID_KEY' });
      await expect(bucket.delete(key), key).rejects.toMatchObject({ code: 'OBJECTSTORE_INVALID_KEY' });
    }
    await expect(bucket.copy('linkfile', 'stolen.txt')).rejects.toMatchObject({ code: 'OBJECTSTORE_INVALID_KEY' });
    expect((await readdir(outside)).sort()).toEqual(['secret.txt']);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
    expect(await bucket.list()).toEqual([]);
  });

  it('works when the bucket directory itself is reached through a symbolic link', async () => {
    const target = await mkdtemp(join(tmpdir(), 'bucket-target-'));
    dirs.push(target);
    const link = `${target}-link`;
    await symlink(target, link);
    dirs.push(link);
    const bucket = createLocalBucket(link, { dispatchObjectNotification: async () => ({}) });
    await bucket.put('users/1.png', 'x');
    expect(await readFile(join(target, 'users', '1.png'), 'utf8')).toBe('x');
  });

  it('either stores a generated key inside the directory or refuses it with OBJECTSTORE_INVALID_KEY', async () => {
    const { bucket } = await setup();
    const outside = await mkdtemp(join(tmpdir(), 'bucket-outside-'));
    dirs.push(outside);
    await symlink(outside, join(bucket.dir, 'ln'));
    const root = await realpath(bucket.dir);
    const segment = fc.oneof(
      fc.constantFrom('.', '..', '', 'a', 'b', 'ln', '..foo', '.x', 'é', '\\', '\0', 'C:', '~'),
      fc.string({ unit: fc.constantFrom('a', '.', 'é', ' ', '%', '\\', '\0', ':'), maxLength: 8 }),
      fc.integer({ min: 200, max: 300 }).map((n) => 'x'.repeat(n)),
    );
    const key = fc.oneof(
      fc.array(segment, { minLength: 1, maxLength: 6 }).map((parts) => parts.join('/')),
      fc.string({ maxLength: 40 }),
    );
    await fc.assert(
      fc.asyncProperty(key, async (k) => {
        try {
          await bucket.put(k, k);
        } catch (error) {
          expect((error as { code?: string }).code, JSON.stringify(k)).toBe('OBJECTSTORE_INVALID_KEY');
          return;
        }
        const stored = await bucket.get(k);
        expect(new TextDecoder().decode(stored!.body)).toBe(k);
        const file = await realpath(join(bucket.dir, ...k.split('/')));
        expect(file.startsWith(root + sep), JSON.stringify(k)).toBe(true);
      }),
      { numRuns: 300 },
    );
    expect(await readdir(outside)).toEqual([]);
  });
});
