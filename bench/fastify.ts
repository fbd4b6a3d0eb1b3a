/**
 * `npm run bench:fastify -w @framework/bench`: only the Fastify and Express throughput rows (the adapter tables
 * of `npm run bench`). `BENCH_SECONDS` and `BENCH_ROUNDS` shorten a quick look (default 3 s, 5 rounds).
 */
import { printAdapterTable } from './adapter-table.js';
import { ADAPTER_DEFAULT_OVER_NOOP, HONO_CPU_OVER_NOOP } from './goals.js';
import { expressProtectedVsBare, fastifyProtectedVsBare } from './throughput.js';

/** Prints the Fastify table: each route's req/s and server CPU µs per request against bare Fastify. */
export async function printFastifyThroughput(seconds = 3, rounds = 5): Promise<void> {
  const t = await fastifyProtectedVsBare(seconds, rounds);
  const node20 = process.versions.node.startsWith('20.');
  printAdapterTable(
    'protected route (jwt) vs bare Fastify',
    t,
    [
      ['bare Fastify', 'fastify-bare', undefined],
      ['a no-op preHandler (the ceiling of any)', 'fastify-noop', undefined],
      ['authPlugin as shipped (no ALS) + requireAuth() preHandler', 'fastify-default', ADAPTER_DEFAULT_OVER_NOOP],
      [
        'authPlugin({ scope: true }) (ALS) + global requireAuth()',
        'fastify-scoped',
        node20 ? HONO_CPU_OVER_NOOP.scoped : undefined,
      ],
    ],
    { bare: 'fastify-bare', noop: 'fastify-noop' },
    rounds,
  );
}

/** Prints the Express table: `authSession(auth)` as shipped (no ALS), with the scope, a no-op and bare Express. */
export async function printExpressThroughput(seconds = 3, rounds = 5): Promise<void> {
  const t = await expressProtectedVsBare(seconds, rounds);
  const node20 = process.versions.node.startsWith('20.');
  printAdapterTable(
    'protected route (jwt) vs bare Express',
    t,
    [
      ['bare Express', 'express-bare', undefined],
      ['a no-op middleware (the ceiling of any)', 'express-noop', undefined],
      ['authSession(auth) as shipped (no ALS) + req.auth', 'express-unscoped', ADAPTER_DEFAULT_OVER_NOOP],
      [
        'authSession(auth, { scope: true }) (ALS) + global requireAuth()',
        'express-default',
        node20 ? HONO_CPU_OVER_NOOP.scoped : undefined,
      ],
    ],
    { bare: 'express-bare', noop: 'express-noop' },
    rounds,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const seconds = Number(process.env.BENCH_SECONDS ?? 3);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  await printFastifyThroughput(seconds, rounds);
  await printExpressThroughput(seconds, rounds);
  process.exit(0);
}
