/**
 * The D1 adapter against Miniflare's D1: the adapter runs in Node, every
 * statement runs in workerd's D1 (SQLite), sent to a Worker by
 * `./d1-test-support.ts`. `runtime-tests/` also runs it inside a Worker.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runStorageConformance } from '../conformance.js';
import type { D1DatabaseLike } from './binding.js';
import { createD1Adapter } from './adapter.js';
import { D1Dialect } from './dialect.js';
import { Kysely } from 'kysely';

import { miniflareD1 } from './d1-test-support.js';

const d1 = miniflareD1();
afterAll(() => d1.dispose());
const { binding } = d1;

let runs = 0;
/** Each test gets its own tables (a fresh prefix), dropped afterwards. */
async function fresh(prefix = `c${++runs}_`) {
  const adapter = createD1Adapter({ binding, tablePrefix: prefix });
  const teardown = async () => {
    const { results = [] } = await binding
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE ?`)
      .bind(`${prefix}%`)
      .all<{ name: string }>();
    // Children before users, so foreign keys never block a drop.
    const ordered = results
      .map((r) => r.name)
      .sort((a, b) => Number(a.endsWith('users')) - Number(b.endsWith('users')));
    for (const name of ordered) await binding.prepare(`DROP TABLE "${name}"`).run();
  };
  return { adapter, teardown };
}

runStorageConformance('d1 (Miniflare)', () => fresh());

describe('createD1Adapter', () => {
  it('uses the default auth_ prefix', async () => {
    const { adapter, teardown } = await fresh('auth_');
    await adapter.migrate();
    const user = await adapter.createUser({ email: 'd1@example.com' });
    const row = await binding
      .prepare('SELECT email FROM auth_users WHERE id = ?')
      .bind(user.id)
      .first<{ email: string }>();
    expect(row).toStrictEqual({ email: 'd1@example.com' });
    await teardown();
  });

  it('deletes a user and their rows in one batch', async () => {
    const { adapter, teardown } = await fresh();
    await adapter.migrate();
    const user = await adapter.createUser({ email: 'gone@example.com' });
    await adapter.createSession({
      id: 's',
      tokenHash: 'h',
      userId: user.id,
      expires: new Date(2e12),
      createdAt: new Date(1e12),
    });
    await adapter.deleteUser(user.id);
    expect(await adapter.getSessionAndUser('s')).toBeNull();
    expect(await adapter.getUser(user.id)).toBeNull();
    await teardown();
  });

  it('refuses reads inside a transaction, and rolls back its queued writes', async () => {
    const db = new Kysely<any>({ dialect: new D1Dialect({ binding }) });
    await db.schema.createTable('tx_probe').addColumn('id', 'text').execute();
    const reading = db.transaction().execute((trx) => trx.selectFrom('tx_probe').selectAll().execute());
    await expect(reading).rejects.toThrow(/write-only batch/);
    const failing = db.transaction().execute(async (trx) => {
      await trx.insertInto('tx_probe').values({ id: 'x' }).execute();
      throw new Error('abort');
    });
    await expect(failing).rejects.toThrow('abort');
    expect(await db.selectFrom('tx_probe').selectAll().execute()).toStrictEqual([]);
    await db.schema.dropTable('tx_probe').execute();
  });

  it('rejects a binding that is not D1-like', () => {
    expect(() => createD1Adapter({ binding: {} as D1DatabaseLike })).toThrow(TypeError);
  });
});
