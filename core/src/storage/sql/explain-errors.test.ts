/**
 * Storage errors that name the database and the fix: real better-sqlite3 and pg failures (a folder as the
 * file, a file as a folder, a file that is not a database, a closed port, a missing database), and the auth
 * routes' 503 answer.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_URL, serviceAvailable } from '../../../../test-support/services.js';
import { createAuth } from '../../auth.js';
import { email } from '../../providers/email.js';
import { TestClient } from '../../testing/fixtures.js';
import { explainPostgresError, explainSqliteError, postgresTarget } from './explain-errors.js';
import { createPostgresAdapter } from './postgres.js';
import { createSqliteAdapter } from './sqlite.js';

const root = await mkdtemp(join(tmpdir(), 'auth-explain-'));
afterAll(() => rm(root, { recursive: true, force: true }));

/** The rejection of `promise`, which must reject. */
type Rejection = Error & { code?: string; cause?: { code?: string } };
async function rejection(promise: Promise<unknown>): Promise<Rejection> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error as Rejection,
  );
  if (!outcome) throw new Error('expected a rejection');
  return outcome;
}

describe('SQLite errors name the file and the fix', () => {
  it('a folder given as the file: SQLITE_CANTOPEN with the absolute path', async () => {
    const folder = join(root, 'a-folder.db');
    await mkdir(folder);
    const error = await rejection(createSqliteAdapter({ filename: folder }).migrate());
    expect(error.code).toBe('STORAGE_UNAVAILABLE');
    expect(error.message).toContain(`"${folder}"`);
    expect(error.message).toContain('SQLITE_CANTOPEN');
    expect(error.message).toMatch(/check that its folder exists/);
    expect(error.cause?.code).toBe('SQLITE_CANTOPEN');
  });

  it('a regular file where the folder should be: the folder cannot be created (ENOTDIR)', async () => {
    const blocker = join(root, 'blocker');
    await writeFile(blocker, 'not a folder');
    const filename = join(blocker, 'sub', 'auth.db');
    const adapter = createSqliteAdapter({ filename });
    const error = await rejection(adapter.getUser('u1'));
    expect(error.code).toBe('STORAGE_UNAVAILABLE');
    expect(error.message).toContain(`"${filename}"`);
    expect(error.message).toMatch(/Cannot create the folder .*ENOTDIR/);
    // Every call explains, not only the first.
    expect((await rejection(adapter.createUser({ email: 'a@example.com' }))).code).toBe('STORAGE_UNAVAILABLE');
  });

  it('a relative filename is named by its absolute path', async () => {
    const folder = join(root, 'relative.db');
    await mkdir(folder);
    const filename = relative(process.cwd(), folder);
    expect(filename.startsWith('/')).toBe(false);
    const error = await rejection(createSqliteAdapter({ filename }).migrate());
    expect(error.message).toContain(`"${folder}"`);
  });

  it('a file that is not a database: SQLITE_NOTADB', async () => {
    const junk = join(root, 'junk.db');
    await writeFile(junk, 'this is a text file, not a SQLite database. '.repeat(40));
    const error = await rejection(createSqliteAdapter({ filename: junk }).migrate());
    expect(error.code).toBe('STORAGE_UNAVAILABLE');
    expect(error.message).toContain(`"${junk}" is not a usable SQLite database (SQLITE_NOTADB)`);
  });

  it("better-sqlite3's own read-only error is explained with the permission fix", () => {
    const file = join(root, 'read-only.db');
    const writer = new Database(file);
    writer.exec('create table t (x)');
    writer.close();
    const reader = new Database(file, { readonly: true });
    let thrown: unknown;
    try {
      reader.exec('insert into t values (1)');
    } catch (error) {
      thrown = error;
    } finally {
      reader.close();
    }
    expect((thrown as { code: string }).code).toBe('SQLITE_READONLY');
    const explained = explainSqliteError(thrown, file) as Error & { code: string };
    expect(explained.code).toBe('STORAGE_UNAVAILABLE');
    expect(explained.message).toContain(`Cannot write to the SQLite database file "${file}" (SQLITE_READONLY)`);
    expect(explained.message).toContain('-wal');
    expect(explained.cause).toBe(thrown);
  });

  it('leaves unrelated errors alone (a unique violation stays a conflict)', async () => {
    const adapter = createSqliteAdapter({ filename: ':memory:' });
    await adapter.migrate();
    await adapter.createUser({ email: 'same@example.com' });
    const error = await rejection(adapter.createUser({ email: 'same@example.com' }));
    expect(error.code).toBe('CONFLICT');
    const plain = new Error('something else');
    expect(explainSqliteError(plain, '/x.db')).toBe(plain);
  });

  it('the auth routes answer 503 STORAGE_UNAVAILABLE and log the file, with nothing of it in the response', async () => {
    const folder = join(root, 'routes.db');
    await mkdir(folder);
    const errors: string[] = [];
    const auth = createAuth({
      secret: 'explain-errors-secret-explain-errors-secret',
      adapter: createSqliteAdapter({ filename: folder }),
      providers: [email({ from: 'login@app.test', sendVerificationRequest: async () => {} })],
      logger: { error: (m) => errors.push(m), warn: () => {} },
    });
    const res = await new TestClient(auth).postJson('/auth/signin/email', { email: 'ada@example.com' });
    expect(res.status).toBe(503);
    const body = await res.text();
    expect(JSON.parse(body)).toEqual({ error: { code: 'STORAGE_UNAVAILABLE', message: 'Storage unavailable' } });
    expect(body).not.toContain(folder);
    expect(errors.join('\n')).toContain(`"${folder}"`);
  });
});

const pgUp = await serviceAvailable('postgres');

describe.runIf(pgUp)('PostgreSQL errors name host:port, database and user, never the password', () => {
  it('a closed port: refused, with host:port and no password', async () => {
    const adapter = createPostgresAdapter({ connectionString: 'postgres://web:s3cret-pw@127.0.0.1:1/app' });
    const error = await rejection(adapter.migrate());
    expect(error.code).toBe('STORAGE_UNAVAILABLE');
    expect(error.message).toBe(
      'PostgreSQL at 127.0.0.1:1 refused the connection (database "app", user "web"): start the server, or fix the host and port in connectionString, or PGHOST and PGPORT.',
    );
    expect(error.message).not.toContain('s3cret');
    expect(error.cause?.code).toBe('ECONNREFUSED');
    await adapter.close?.();
  });

  it('a pool you own is named by its own options', async () => {
    const pg = (await import('pg')).default;
    const pool = new pg.Pool({ host: '127.0.0.1', port: 1, database: 'owned', user: 'pooler' });
    const error = await rejection(createPostgresAdapter({ pool }).getUser('u1'));
    expect(error.message).toMatch(
      /^PostgreSQL at 127\.0\.0\.1:1 refused the connection \(database "owned", user "pooler"\)/,
    );
    await pool.end();
  });

  it('a missing database: 3D000 with the createdb fix', async () => {
    const url = new URL(DATABASE_URL);
    url.pathname = '/framework_no_such_database';
    const adapter = createPostgresAdapter({ connectionString: url.href });
    const error = await rejection(adapter.migrate());
    expect(error.code).toBe('STORAGE_UNAVAILABLE');
    expect(error.message).toContain(`PostgreSQL at ${url.hostname}:${url.port || 5432} has no such database`);
    expect(error.message).toContain('`createdb framework_no_such_database`');
    expect(error.cause?.code).toBe('3D000');
    await adapter.close?.();
  });
});

describe('explainPostgresError', () => {
  const target = postgresTarget('postgres://web:pw@db.internal:5433/shop', {});

  it.each([
    ['ENOTFOUND', /the host name "db\.internal" does not resolve/],
    ['EAI_AGAIN', /does not resolve/],
    ['ETIMEDOUT', /did not answer/],
    ['EHOSTUNREACH', /did not answer/],
    ['28P01', /refused the credentials/],
    ['53300', /no free connection slot/],
    ['57P03', /starting up/],
    ['ECONNRESET', /dropped the connection/],
  ])('%s', (code, expected) => {
    const cause = Object.assign(new Error('driver text'), { code });
    const explained = explainPostgresError(cause, target) as Error & { code: string };
    expect(explained.code).toBe('STORAGE_UNAVAILABLE');
    expect(explained.message).toMatch(/^PostgreSQL at db\.internal:5433 /);
    expect(explained.message).toMatch(expected);
    expect(explained.cause).toBe(cause);
  });

  it("passes query errors through (they are the caller's to see)", () => {
    const syntax = Object.assign(new Error('syntax error'), { code: '42601' });
    expect(explainPostgresError(syntax, target)).toBe(syntax);
  });

  it('reads the target from a URL, a socket host parameter, then the PG* environment', () => {
    expect(postgresTarget('postgres://u:p@h:6000/d', {})).toEqual({
      host: 'h',
      port: '6000',
      database: 'd',
      user: 'u',
    });
    expect(postgresTarget('postgres:///d?host=/var/run/postgresql', {}).host).toBe('/var/run/postgresql');
    expect(postgresTarget(undefined, { PGHOST: 'envhost', PGPORT: '7000', PGDATABASE: 'e', PGUSER: 'x' })).toEqual({
      host: 'envhost',
      port: '7000',
      database: 'e',
      user: 'x',
    });
    expect(postgresTarget('host=a port=1', { PGHOST: 'fallback' }).host).toBe('fallback');
  });

  it('never puts the password in the message (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 6, maxLength: 30 }), (password) => {
        fc.pre(!/[a-z]{0,2}(web|db|internal|shop)/i.test(password));
        const url = `postgres://web:${encodeURIComponent(password)}@db.internal:5433/shop`;
        for (const code of ['ECONNREFUSED', '28P01', '3D000', 'ENOTFOUND']) {
          const explained = explainPostgresError(Object.assign(new Error('x'), { code }), postgresTarget(url, {}));
          expect((explained as Error).message).not.toContain(password);
          expect((explained as Error).message).not.toContain(encodeURIComponent(password));
        }
      }),
    );
  });
});
