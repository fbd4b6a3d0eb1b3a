import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DATABASE_URL, serviceAvailable } from '../../../../test-support/services.js';
import { runStorageConformance } from '../conformance.js';
import { createPostgresAdapter } from './postgres.js';

type PgModule = typeof import('pg').default;

// Under CI=true this throws when PostgreSQL is down, failing the file.
const pgUp = await serviceAvailable('postgres');

// pg itself must load here. Known cause when it does not: vitest passes its
// `ssr.resolve.conditions` to Node as `--conditions`; with `import` among them,
// pg's `require('pg-pool')` gets pg-pool's ESM build and pg fails to load.
const loaded = await import('pg').then(
  (module) => module.default,
  (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
);
it('pg loads in the test process', () => {
  if (loaded instanceof Error) throw new Error(`pg could not be loaded: ${String(loaded)}`, { cause: loaded });
  expect(typeof loaded.Pool).toBe('function');
});
const pg = loaded instanceof Error ? undefined : loaded;

/** Creates a fresh schema; returns its name and how to drop it. */
async function freshSchema(pg: PgModule): Promise<{ schema: string; drop: () => Promise<void> }> {
  const schema = `auth_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  return {
    schema,
    drop: async () => {
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}

describe.skipIf(!pgUp || !pg)('createPostgresAdapter', () => {
  if (!pg) return;
  runStorageConformance('postgres', async () => {
    const { schema, drop } = await freshSchema(pg);
    const pool = new pg.Pool({ connectionString: DATABASE_URL, options: `-c search_path=${schema}` });
    return {
      adapter: createPostgresAdapter({ pool }),
      teardown: async () => {
        await pool.end();
        await drop();
      },
    };
  });

  it('with a connectionString: imports pg, creates its tables in the search_path schema, and ends its pool on close', async () => {
    const { schema, drop } = await freshSchema(pg);
    try {
      const url = new URL(DATABASE_URL);
      url.searchParams.set('options', `-c search_path=${schema}`);
      const adapter = createPostgresAdapter({ connectionString: url.href, tablePrefix: 'kit_' });
      await adapter.migrate();
      await adapter.migrate();
      const user = await adapter.createUser({ email: 'pg@example.com', emailVerified: new Date(1_700_000_000_123) });
      expect(await adapter.getUserByEmail('PG@example.com')).toStrictEqual(user);
      await adapter.close?.();

      const check = new pg.Client({ connectionString: DATABASE_URL });
      await check.connect();
      const { rows } = await check.query<{ table_name: string }>(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
        [schema],
      );
      await check.end();
      expect(rows.map((r) => r.table_name)).toStrictEqual([
        'kit_accounts',
        'kit_authenticators',
        'kit_migrations',
        'kit_migrations_lock',
        'kit_sessions',
        'kit_users',
        'kit_verification_tokens',
      ]);
    } finally {
      await drop();
    }
  });

  it('migrates a second schema that holds the same tables (bookkeeping pinned to current_schema())', async () => {
    const first = await freshSchema(pg);
    const second = await freshSchema(pg);
    const pools = [first, second].map(
      (s) => new pg.Pool({ connectionString: DATABASE_URL, options: `-c search_path=${s.schema}` }),
    );
    try {
      await createPostgresAdapter({ pool: pools[0]! }).migrate();
      const adapter = createPostgresAdapter({ pool: pools[1]! });
      await adapter.migrate();
      const user = await adapter.createUser({ email: 'second@example.com' });
      expect((await adapter.getUser(user.id))?.email).toBe('second@example.com');
    } finally {
      await Promise.all(pools.map((p) => p.end()));
      await first.drop();
      await second.drop();
    }
  });

  it('upgrades a database made before session versions in place (migration 0002)', async () => {
    const { schema, drop } = await freshSchema(pg);
    const pool = new pg.Pool({ connectionString: DATABASE_URL, options: `-c search_path=${schema}` });
    try {
      await createPostgresAdapter({ pool }).migrate();
      // Turn the schema back into a 0001-only database holding one user.
      await pool.query(`DROP INDEX auth_verification_tokens_expires_idx; ALTER TABLE auth_users DROP COLUMN session_version;
        DELETE FROM auth_migrations WHERE name = '0002_session_version';
        ALTER TABLE auth_sessions DROP COLUMN user_agent, DROP COLUMN ip, DROP COLUMN last_active_at, DROP COLUMN impersonated_by;
        DELETE FROM auth_migrations WHERE name >= '0003'; -- later migrations run again: they are idempotent
        INSERT INTO auth_users (id, email, email_normalized) VALUES ('old-user', 'old@example.com', 'old@example.com');`);
      const upgraded = createPostgresAdapter({ pool });
      await upgraded.migrate();
      expect(await upgraded.getSessionVersion('old-user')).toBe(0);
      expect(await upgraded.bumpSessionVersion('old-user')).toBe(1);
      expect((await upgraded.getUser('old-user'))?.email).toBe('old@example.com');
    } finally {
      await pool.end();
      await drop();
    }
  });

  it('upgrades a database made before session metadata in place (migration 0003)', async () => {
    const { schema, drop } = await freshSchema(pg);
    const pool = new pg.Pool({ connectionString: DATABASE_URL, options: `-c search_path=${schema}` });
    try {
      await createPostgresAdapter({ pool }).migrate();
      await pool.query(`ALTER TABLE auth_sessions DROP COLUMN user_agent, DROP COLUMN ip, DROP COLUMN last_active_at, DROP COLUMN impersonated_by;
        DELETE FROM auth_migrations WHERE name >= '0003'; -- later migrations run again: they are idempotent
        INSERT INTO auth_users (id, email, email_normalized) VALUES ('old-user', 'old@example.com', 'old@example.com');
        INSERT INTO auth_sessions (id, token_hash, user_id, expires, created_at) VALUES ('old-session', 'h', 'old-user', 4102444800000, 1000);`);
      const upgraded = createPostgresAdapter({ pool });
      await upgraded.migrate();
      const old = {
        id: 'old-session',
        tokenHash: 'h',
        userId: 'old-user',
        expires: new Date(4102444800000),
        createdAt: new Date(1000),
      };
      expect((await upgraded.getSessionAndUser('old-session'))?.session).toStrictEqual(old);
      expect(await upgraded.updateSessionExpiry('old-session', old.expires, new Date(2000))).toStrictEqual({
        ...old,
        lastActiveAt: new Date(2000),
      });
    } finally {
      await pool.end();
      await drop();
    }
  });

  it('rejects both connectionString and pool', () => {
    expect(() => createPostgresAdapter({ connectionString: DATABASE_URL, pool: new pg.Pool() })).toThrow(TypeError);
  });
});
