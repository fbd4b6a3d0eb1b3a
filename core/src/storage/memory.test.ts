import { expect, it } from 'vitest';
import { runStorageConformance } from './conformance.js';
import { memoryAdapter } from './memory.js';

runStorageConformance('memory', async () => ({ adapter: memoryAdapter() }));

it('memory adapters do not share data', async () => {
  const [a, b] = [memoryAdapter(), memoryAdapter()];
  const user = await a.createUser({ email: 'solo@example.com' });
  expect(await b.getUser(user.id)).toBeNull();
  expect((await b.createUser({ email: 'solo@example.com' })).email).toBe('solo@example.com');
});
