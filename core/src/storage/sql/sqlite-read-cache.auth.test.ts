/**
 * The SQLite session read cache attacked through `auth.handler`: after every way a session ends, the very next
 * request with the old cookie is refused, on a real file.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import Database from 'better-sqlite3';
import { makeFixture, type TestClient } from '../../testing/fixtures.js';
import { createSqliteAdapter } from './sqlite.js';

const root = await mkdtemp(join(tmpdir(), 'framework-sqlite-read-cache-auth-'));
afterAll(() => rm(root, { recursive: true, force: true }));
let files = 0;

/** A signed-in browser on a fresh SQLite file, its session read twice (so answered from the cache). */
async function signedIn(otherConnectionsMs?: number) {
  const filename = join(root, `db-${++files}.db`);
  const adapter = createSqliteAdapter({
    filename,
    ...(otherConnectionsMs === undefined ? {} : { sessionReadCache: { otherConnectionsMs } }),
  });
  const fixture = await makeFixture('database', { adapter });
  const browser = fixture.client();
  expect((await browser.signIn()).status).toBe(200);
  const cookie = browser.cookies.get('framework.session-token')!;
  expect((await browser.session())?.user.id).toBe(fixture.userId);
  expect((await browser.session())?.user.id).toBe(fixture.userId);
  return { ...fixture, filename, browser, cookie };
}

/** A client replaying `cookie` (an attacker holding the old cookie). */
function replaying(client: TestClient, cookie: string): TestClient {
  client.cookies.set('framework.session-token', cookie);
  return client;
}

describe('SQLite session read cache through auth.handler', () => {
  it('refuses the old cookie on the next request after sign-out', async () => {
    const { browser, cookie, client, adapter } = await signedIn();
    expect((await browser.postJson('/auth/signout', {})).status).toBe(200);
    expect(await replaying(client(), cookie).session()).toBeNull();
    await adapter.close?.();
  });

  it('refuses every other browser after "sign out everywhere"', async () => {
    const { browser, client, adapter } = await signedIn();
    const other = client();
    await other.signIn();
    expect(await other.session()).not.toBeNull();
    expect(await other.session()).not.toBeNull();
    await browser.postJson('/auth/signout', { everywhere: 'true' });
    expect(await other.session()).toBeNull();
    await adapter.close?.();
  });

  it('refuses the cookie once the user row is deleted and its sessions go by foreign-key cascade only', async () => {
    const { browser, adapter, userId } = await signedIn();
    const db = await adapter.loadKysely!();
    // One statement on the users table: the sessions go through ON DELETE CASCADE.
    await sql`DELETE FROM auth_users WHERE id = ${userId}`.execute(db);
    expect(await browser.session()).toBeNull();
    await adapter.close?.();
  });

  it('refuses the cookie after DELETE without WHERE and after INSERT OR REPLACE of the session row', async () => {
    const { browser, adapter, userId } = await signedIn();
    const db = await adapter.loadKysely!();
    const [id] = browser.cookies.get('framework.session-token')!.split('.');
    // The same id, another token hash: the old cookie's secret no longer matches.
    await sql`INSERT OR REPLACE INTO auth_sessions (id, token_hash, user_id, expires, created_at)
      VALUES (${id}, 'replaced', ${userId}, ${Date.now() + 3_600_000}, ${Date.now()})`.execute(db);
    expect(await browser.session()).toBeNull();
    const again = await signedIn();
    const db2 = await again.adapter.loadKysely!();
    await sql`DELETE FROM auth_sessions`.execute(db2);
    expect(await again.browser.session()).toBeNull();
    await adapter.close?.();
    await again.adapter.close?.();
  });

  it('refuses the cookie after a revoke committed by another connection (otherConnectionsMs 0)', async () => {
    const { browser, filename, adapter } = await signedIn(0);
    const cli = new Database(filename);
    cli.prepare('DELETE FROM auth_sessions').run();
    cli.close();
    expect(await browser.session()).toBeNull();
    await adapter.close?.();
  });

  it('reads through an open Kysely transaction, and after its rollback or commit answers from the table', async () => {
    const { browser, adapter, client, cookie } = await signedIn();
    const db = await adapter.loadKysely!();
    const [id] = cookie.split('.');
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let deleted!: () => void;
    const wasDeleted = new Promise<void>((resolve) => (deleted = resolve));
    const rolledBack = db
      .transaction()
      .execute(async (trx) => {
        await trx.deleteFrom('auth_sessions').where('id', '=', id!).execute();
        deleted();
        await released;
        throw new Error('roll back');
      })
      .catch((error: unknown) => error);
    await wasDeleted;
    // Between the transaction's statements the connection reads its own uncommitted delete (and that answer
    // clears the cookie of the browser asking: another client asks here).
    expect(await replaying(client(), cookie).session()).toBeNull();
    release();
    expect(await rolledBack).toBeInstanceOf(Error);
    expect(await browser.session()).not.toBeNull();
    expect(await browser.session()).not.toBeNull();
    await db.transaction().execute((trx) => trx.deleteFrom('auth_sessions').where('id', '=', id!).execute());
    expect(await browser.session()).toBeNull();
    await adapter.close?.();
  });
});
