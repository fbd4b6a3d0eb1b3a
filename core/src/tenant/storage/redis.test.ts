import { randomBytes } from 'node:crypto';
import { Redis as UpstashRedis } from '@upstash/redis';
import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { REDIS_URL, serviceAvailable } from '../../../../test-support/services.js';
import { runTenantStorageConformance } from './conformance.js';
import { createKeyValueTenantStorage } from './kv.js';

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');

describe.skipIf(!redisUp)('createKeyValueTenantStorage on a real Redis', () => {
  const client = createClient({ url: REDIS_URL });
  const connected = redisUp ? client.connect() : Promise.resolve(client);
  const run = `tenant-test:${randomBytes(6).toString('hex')}:`;
  let fixtures = 0;
  const freshPrefix = () => `${run}${++fixtures}:`;

  /** Every key this run wrote. */
  async function keysOfRun(): Promise<string[]> {
    const keys: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: `${run}*`, COUNT: 500 })) keys.push(...batch);
    return keys;
  }
  afterAll(async () => {
    if (!redisUp) return;
    const keys = await keysOfRun();
    if (keys.length > 0) await client.del(keys);
    client.destroy();
  });

  runTenantStorageConformance('key-value (node-redis)', async () => {
    await connected;
    return { storage: createKeyValueTenantStorage(client, { prefix: freshPrefix() }) };
  });

  /** A real @upstash/redis client whose requests go to the local Redis over node-redis, raw (no base64). */
  const upstash = new UpstashRedis({
    request: async <T>(req: { body?: unknown }) => {
      await connected;
      const command = (req.body as unknown[]).map(String);
      return { result: (await client.sendCommand(command)) as T };
    },
  });

  runTenantStorageConformance('key-value (@upstash/redis)', async () => ({
    storage: createKeyValueTenantStorage(upstash, { prefix: freshPrefix() }),
  }));

  it('stores JSON strings under the prefix; delete leaves nothing behind', async () => {
    await connected;
    const prefix = freshPrefix();
    const storage = createKeyValueTenantStorage(client, { prefix });
    const t = await storage.create({ id: 'r1', slug: 'acme', name: 'Acme' });
    await storage.addMember({ tenantId: t.id, userId: 'u1', role: 'owner' });
    expect(JSON.parse((await client.get(`${prefix}id:r1`))!)).toMatchObject({ id: 'r1', slug: 'acme', name: 'Acme' });
    await storage.delete(t.id);
    expect((await keysOfRun()).filter((k) => k.startsWith(prefix))).toStrictEqual([]);
  });
});
