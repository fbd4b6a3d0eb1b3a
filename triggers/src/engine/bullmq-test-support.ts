/** Test support for the BullMQ engine: isolated prefixes on the test Redis and their removal. */
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { REDIS_URL } from '../../../test-support/services.js';

export { REDIS_URL };

/** A fresh key prefix for one test. */
export function testPrefix(): string {
  return `trigger-test-${randomBytes(5).toString('hex')}`;
}

/** Deletes every key under `prefix`. */
export async function deletePrefix(prefix: string): Promise<void> {
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  try {
    const keys: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: `${prefix}:*`, COUNT: 500 })) keys.push(...batch);
    for (let i = 0; i < keys.length; i += 500) await client.del(keys.slice(i, i + 500));
  } finally {
    await client.quit();
  }
}
