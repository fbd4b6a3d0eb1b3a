import { expect, it } from 'vitest';
import { runStorageConformance } from './conformance.js';
import { createMemoryAdapter } from './memory.js';

runStorageConformance('memory', async () => ({ adapter: createMemoryAdapter() }));

it('memory adapters do not share data', async () => {
  const [a, b] = [createMemoryAdapter(), createMemoryAdapter()];
  const user = await a.createUser({ email: 'solo@example.com' });
  expect(await b.getUser(user.id)).toBeNull();
  expect((await b.createUser({ email: 'solo@example.com' })).email).toBe('solo@example.com');
});
