/**
 * The database-strategy session read on PostgreSQL beside a raw `pg` named prepared statement selecting the same
 * session and user row on the same pool: median µs per call over interleaved batches, and the round trips one
 * `auth.getSession` makes (every `pool.query` and `pool.connect` is one; goal 1). Tables get a random prefix in
 * DATABASE_URL's database (default the local `test`) and are dropped after. Goal: at most 1.1× the raw select.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createPostgresAdapter } from '@framework/auth';
import { signedInAuth } from './fixtures.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface PostgresRead {
  /** Median µs of `auth.getSession(request)`. */
  ours: number;
  /** Median µs of the raw prepared select. */
  raw: number;
  /** Pool round trips of one `auth.getSession`. */
  roundTrips: number;
}

async function batchMicros(run: () => Promise<unknown>, batches: number, perBatch: number): Promise<number[]> {
  const samples: number[] = [];
  for (let b = 0; b < batches; b++) {
    const t = performance.now();
    for (let i = 0; i < perBatch; i++) await run();
    samples.push(((performance.now() - t) * 1000) / perBatch);
  }
  return samples;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function postgresRead(batches = 30, perBatch = 100): Promise<PostgresRead> {
  const prefix = `bench_${randomBytes(4).toString('hex')}_`;
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
  let trips = 0;
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const counting = Object.assign(Object.create(pool) as pg.Pool, {
    query: (...args: unknown[]) => (trips++, query(...args)),
    connect: () => (trips++, connect()),
  });
  const adapter = createPostgresAdapter({ pool: counting, tablePrefix: prefix });
  try {
    await adapter.migrate();
    const { auth, cookie } = await signedInAuth('database', adapter);
    const request = new Request('http://localhost/', { headers: { cookie } });
    if (!(await auth.getSession(request)).user) throw new Error('bench: PostgreSQL session did not read back');
    trips = 0;
    await auth.getSession(request);
    const roundTrips = trips;
    const { rows } = await pool.query<{ id: string }>(`select id from ${prefix}sessions limit 1`);
    const text = `select * from ${prefix}sessions s join ${prefix}users u on u.id = s.user_id where s.id = $1`;
    const raw = () => pool.query({ name: `${prefix}raw`, text, values: [rows[0]!.id] });
    const ours = () => auth.getSession(request);
    for (const until = performance.now() + 500; performance.now() < until;) await Promise.all([ours(), raw()]);
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < batches; i++) {
      a.push(...(await batchMicros(ours, 1, perBatch)));
      b.push(...(await batchMicros(raw, 1, perBatch)));
    }
    return { ours: median(a), raw: median(b), roundTrips };
  } finally {
    const { rows } = await pool.query<{ tablename: string }>(
      `select tablename from pg_tables where tablename like $1`,
      [`${prefix}%`],
    );
    for (const { tablename } of rows) await pool.query(`drop table if exists "${tablename}" cascade`);
    await pool.end();
  }
}
