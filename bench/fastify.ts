/**
 * `npm run bench:fastify -w @framework/bench`: only the Fastify throughput rows (the last section of `npm run
 * bench`'s adapter tables). `BENCH_SECONDS` and `BENCH_ROUNDS` shorten a quick look (default 3 s, 5 rounds).
 */
import { fastifyProtectedVsBare } from './throughput.js';

const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** Prints the Fastify table: each route's req/s and server CPU µs per request against bare Fastify. */
export async function printFastifyThroughput(seconds = 3, rounds = 5): Promise<void> {
  const t = await fastifyProtectedVsBare(seconds, rounds);
  console.log(
    `\n== protected route (jwt) vs bare Fastify (autocannon, 20 connections, loopback; median of ${rounds} interleaved rounds; ${
      t.pinned ? 'server on core 1, load generator on core 0' : 'not pinned to cores'
    })`,
  );
  console.log('| route | req/s | % of bare req/s | server CPU µs per request | % of bare capacity (CPU) |');
  console.log('|---|---|---|---|---|');
  const routes = [
    ['bare Fastify', 'fastify-bare'],
    ['a no-op preHandler (the ceiling of any)', 'fastify-noop'],
    ['authPlugin(scope: false) + requireAuth() preHandler', 'fastify-default'],
    [`authPlugin (default scope, ALS, Node ${process.versions.node}) + global requireAuth()`, 'fastify-scoped'],
  ] as const;
  for (const [label, kind] of routes) {
    const cpu = t.cpu ? `${fmt(t.cpu[kind], 2)} | ${fmt((t.cpu['fastify-bare'] / t.cpu[kind]) * 100)} %` : 'n/a | n/a';
    console.log(
      `| ${label} | ${fmt(t.rps[kind], 0)} | ${fmt((t.rps[kind] / t.rps['fastify-bare']) * 100)} % | ${cpu} |`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await printFastifyThroughput(Number(process.env.BENCH_SECONDS ?? 3), Number(process.env.BENCH_ROUNDS ?? 5));
  process.exit(0);
}
