import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    for (const key of ['../escape.txt', 'a/../../escape.txt', '/etc/passwd', 'C:/x', 'a\\b', 'a//b', './a', '', 'nul\0byte']) {
      await expect(bucket.put(key, 'x'), key).rejects.toMatchObject({ code: 'OBJECTSTORE_INVALID_KEY' });
      await expect(bucket.get(key), key).rejects.toMatchObject({ code: 'OBJECTSTORE_INVALID_KEY' });
    }
    expect(await bucket.list()).toEqual([]);
  });
});
