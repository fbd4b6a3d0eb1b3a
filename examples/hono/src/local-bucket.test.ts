import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTriggerRuntime } from '@framework/trigger';
import { describe, expect, it } from 'vitest';
import avatarUploaded from '../app/triggers/avatar-uploaded.js';
import { createAvatarUploadLog, createExampleBucket } from './local-bucket.js';

describe('example avatar bucket', () => {
  it('records the size of each avatar written under users/', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'avatars-'));
    const avatarUploads = createAvatarUploadLog(':memory:');
    const runtime = createTriggerRuntime({ triggers: { 'avatar-uploaded': avatarUploaded }, env: { avatarUploads } });
    try {
      const bucket = createExampleBucket(dir, runtime);
      await bucket.put('users/42.png', new Uint8Array(1234));
      await bucket.put('tmp/scratch.bin', new Uint8Array(5));
      await runtime.drain();
      expect(avatarUploads.list()).toMatchObject([{ key: 'users/42.png', size: 1234 }]);
      await expect(bucket.put('../outside.png', 'x')).rejects.toMatchObject({ code: 'OBJECTSTORE_INVALID_KEY' });
    } finally {
      avatarUploads.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
