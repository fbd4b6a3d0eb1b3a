import { drizzle } from 'drizzle-orm/node-postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { runStorageConformance } from '../conformance.js';
import { createSqlAdapter } from '../sql/adapter.js';
import { createDrizzleAdapter } from './adapter.js';
import { pgPools } from './drizzle-test-support.js';

const pg = await pgPools('drizzle_test');

describe.skipIf(!pg.available)('createDrizzleAdapter on node-postgres', () => {
  afterAll(() => pg.dropAll());

  runStorageConformance('drizzle (node-postgres Pool)', async () => {
    const pool = await pg.pool();
    return { adapter: createDrizzleAdapter(drizzle(pool)), teardown: () => pool.end() };
  });

  it('works on one node-postgres Client too, and shares its tables with the Kysely adapter', async () => {
    const pool = await pg.pool();
    const client = await pool.connect();
    try {
      const adapter = createDrizzleAdapter(drizzle({ client }));
      expect(adapter.dialect).toBe('postgres');
      await adapter.migrate();
      const user = await adapter.createUser({ email: 'Client@Example.com', name: 'Ada Lovelace' });
      // The plugin storages' Kysely runs on the same client: it sees the row.
      const kit = createSqlAdapter({ db: adapter.kysely, dialect: 'postgres' });
      expect(await kit.getUserByEmail('client@example.com')).toStrictEqual(user);
      expect((await adapter.listUsers!({ search: 'lovel' })).users.map((u) => u.id)).toStrictEqual([user.id]);
    } finally {
      client.release();
      await pool.end();
    }
  });
});
