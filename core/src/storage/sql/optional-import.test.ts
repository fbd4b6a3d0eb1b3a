import { describe, expect, it, vi } from 'vitest';

// Simulate an install without the optional peers: any import of them throws.
vi.mock('better-sqlite3', () => {
  throw new Error('Cannot find package better-sqlite3');
});
vi.mock('pg', () => {
  throw new Error('Cannot find package pg');
});

describe('without better-sqlite3 and pg installed', () => {
  it('the storage entry loads and the factories create adapters', async () => {
    const storage = await import('../index.js');
    expect(storage.createSqliteAdapter({ filename: ':memory:' })).toBeTypeOf('object');
    expect(storage.createPostgresAdapter({ connectionString: 'postgres://127.0.0.1/none' })).toBeTypeOf('object');
    expect(await storage.createMemoryAdapter().getUser('x')).toBeNull();
  });

  it.each([
    ['better-sqlite3', async () => (await import('./sqlite.js')).createSqliteAdapter({ filename: ':memory:' })],
    [
      'pg',
      async () =>
        (await import('./postgres.js')).createPostgresAdapter({ connectionString: 'postgres://127.0.0.1/none' }),
    ],
  ])('the first call rejects with MISSING_DEPENDENCY naming %s, and retries on the next call', async (name, make) => {
    const adapter = await make();
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await adapter.getUser('x').catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'MISSING_DEPENDENCY', dependency: name });
      expect(String((error as Error).message)).toContain(`npm install ${name}`);
    }
  });
});
