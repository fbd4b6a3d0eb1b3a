import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_URL, serviceAvailable } from '../../../test-support/services.js';
import { eventually } from '../engine/conformance.js';
import { installChangeCapture } from './install.js';

// Under CI=true this throws when PostgreSQL is down, failing the file.
const pgUp = await serviceAvailable('postgres');
const pg = (await import('pg')).default;

const CHILD = fileURLToPath(new URL('./__fixtures__/consumer-child.ts', import.meta.url));

interface Child {
  process: ChildProcess;
  handled: unknown[];
  exited: Promise<void>;
}

async function startChild(schema: string, handlerDelayMs: number): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: {
      ...process.env,
      CHILD_CONFIG: JSON.stringify({ databaseUrl: DATABASE_URL, schema, handlerDelayMs, lease: '300ms' }),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const handled: unknown[] = [];
  let ready = false;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      const parsed = JSON.parse(line) as { pk?: unknown; ready?: boolean };
      if (parsed.ready) ready = true;
      if ('pk' in parsed) handled.push(parsed.pk);
    } catch {
      // not ours
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await eventually(() => expect(ready).toBe(true), 15_000);
  return { process: child, handled, exited };
}

describe.skipIf(!pgUp)('sqldb outbox leases across processes (PostgreSQL)', () => {
  const children: Child[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const child of children.splice(0)) {
      if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
      await child.exited;
    }
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function database(rows: number): Promise<{ schema: string; db: Kysely<any> }> {
    const schema = `trigger_lease_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const pool = new pg.Pool({ connectionString: DATABASE_URL, options: `-c search_path=${schema}`, max: 2 });
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
    cleanups.push(async () => {
      await pool.end();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    });
    await sql`CREATE TABLE users (id INTEGER PRIMARY KEY)`.execute(db);
    await installChangeCapture(db, { tables: ['users'], operations: ['INSERT'] });
    for (let id = 1; id <= rows; id++) await sql`INSERT INTO users (id) VALUES (${id})`.execute(db);
    return { schema, db };
  }

  it('two processes with batches far longer than the lease handle every change exactly once', async () => {
    const { schema } = await database(60);
    // 20 rows × 40 ms = 800 ms per batch against a 300 ms lease, renewed by the heartbeat.
    children.push(...(await Promise.all([startChild(schema, 40), startChild(schema, 40)])));
    await eventually(() => expect(children.flatMap((c) => c.handled).length).toBeGreaterThanOrEqual(60), 20_000);
    await new Promise((resolve) => setTimeout(resolve, 700));
    const all = children.flatMap((c) => c.handled);
    expect(all).toHaveLength(60);
    expect(new Set(all).size).toBe(60);
  }, 60_000);

  it('the rows of a killed process come back once its lease expires', async () => {
    const { schema } = await database(20);
    const victim = await startChild(schema, 60_000);
    children.push(victim);
    await new Promise((resolve) => setTimeout(resolve, 300)); // it claims the 20 rows and hangs in the first
    victim.process.kill('SIGKILL');
    await victim.exited;
    const survivor = await startChild(schema, 5);
    children.push(survivor);
    await eventually(() => expect(new Set(survivor.handled).size).toBe(20), 20_000);
    expect(victim.handled).toEqual([]);
  }, 60_000);
});
