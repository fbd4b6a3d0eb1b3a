/**
 * Rate-limit benchmarks, from one run: `check()` per second with memory
 * storage; with Redis through the node-redis bridge (`@upstash/ratelimit`
 * over `new Redis(requester)`); the same `EVALSHA` through `@upstash/redis`
 * and the bridge only; and raw node-redis `EVALSHA` of the same
 * fixed-window script on the same key. Each Redis figure is
 * measured sequentially (one call in flight: round-trip cost) and with 32
 * calls in flight (throughput). `benchRateLimit()` returns the numbers and
 * prints nothing; Redis figures are left out when Redis (REDIS_URL, default
 * 127.0.0.1:6379) is not reachable. Goal: the bridge costs < 15 % over raw
 * EVALSHA.
 */
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { createClient } from 'redis';
import { createLoginRateLimiter, type RateLimiter } from '@framework/auth/rate-limit';
import {
  createFixedWindowStorage,
  stripUnknownScriptFlags,
  upstashRedisFromNodeRedis,
} from '@framework/auth/rate-limit/upstash';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const MEASURE_MS = 1_200;
const WARMUP_MS = 200;
const ROUNDS = 10;
const IN_FLIGHT = 32;
/** Large enough that every call reaches Redis (a refused key would be answered from the local cache). */
const LIMIT = 1_000_000_000;
const WINDOW_S = 3_600;
const IP = '192.0.2.10';

/** Runs `op` with `concurrency` calls in flight for `ms`; returns [operations, seconds]. */
async function slice(op: () => Promise<unknown>, concurrency: number, ms: number): Promise<[number, number]> {
  let count = 0;
  const started = performance.now();
  const end = started + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await op();
        count++;
      }
    }),
  );
  return [count, (performance.now() - started) / 1000];
}

/**
 * Operations per second of each op. The ops take turns in short slices, so
 * drift in machine load hits them alike (on a small shared machine a single
 * long run of each swings by tens of percent).
 */
async function compare(ops: Array<() => Promise<unknown>>, concurrency: number): Promise<number[]> {
  const totals = ops.map(() => [0, 0]);
  for (const op of ops) await slice(op, concurrency, WARMUP_MS);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, op] of ops.entries()) {
      const [count, seconds] = await slice(op, concurrency, MEASURE_MS / ROUNDS);
      totals[i]![0]! += count;
      totals[i]![1]! += seconds;
    }
  }
  return totals.map(([count, seconds]) => count! / seconds!);
}

const checkOp = (limiter: RateLimiter) => {
  const request = new Request('http://bench.test/auth/callback/credentials');
  return async () => {
    const r = await limiter.check(request, { ip: IP });
    if (!r.success) throw new Error(`benchmark limiter refused: ${r.code}`);
  };
};

async function connect(): Promise<ReturnType<typeof createClient> | null> {
  const client = createClient({ url: REDIS_URL, socket: { connectTimeout: 1_000, reconnectStrategy: false } });
  client.on('error', () => {});
  try {
    return await client.connect();
  } catch {
    return null;
  }
}

/** The fixed-window script `@upstash/ratelimit` runs, as the bridge sends it (flags stripped). */
async function limitScript(client: ReturnType<typeof createClient>): Promise<string> {
  const { Ratelimit } = await import('@upstash/ratelimit');
  let script: string | undefined;
  const capture = {
    evalsha: async () => {
      throw new Error('NOSCRIPT');
    },
    eval: async (text: string) => {
      script = text;
      return [1, LIMIT];
    },
  };
  await new Ratelimit({
    redis: capture as never,
    limiter: Ratelimit.fixedWindow(1, '1 s'),
    ephemeralCache: false,
    enableTelemetry: false,
  }).limit('x');
  if (!script) throw new Error('could not capture the fixed-window script');
  const stripped = stripUnknownScriptFlags(script);
  await client.sendCommand(['SCRIPT', 'LOAD', stripped]);
  return stripped;
}

/** Runs every rate-limit benchmark once and returns the figures (units in the names). */
export async function benchRateLimit(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const memory = createLoginRateLimiter(createFixedWindowStorage(), { limit: LIMIT, window: WINDOW_S });
  [out['memory check() /s']] = (await compare([checkOp(memory)], 1)) as [number];

  const client = await connect();
  if (!client) return out;
  const prefix = `bench:rate-limit:${randomBytes(4).toString('hex')}`;
  try {
    const bridged = createLoginRateLimiter(createFixedWindowStorage(client), {
      limit: LIMIT,
      window: WINDOW_S,
      prefix,
    });
    const script = await limitScript(client);
    const { createHash } = await import('node:crypto');
    const sha = createHash('sha1').update(script).digest('hex');
    const windowMs = WINDOW_S * 1000;
    // The same key the bridged limiter writes: `<prefix>:ip:<ip>:<window index>`.
    const raw = async () => {
      const key = `${prefix}:ip:${IP}:${Math.floor(Date.now() / windowMs)}`;
      await client.sendCommand(['EVALSHA', sha, '1', key, String(LIMIT), String(windowMs), '1']);
    };
    // The bridge alone: the same EVALSHA through `@upstash/redis` over the requester.
    const redis = upstashRedisFromNodeRedis(client);
    const viaBridge = async () => {
      const key = `${prefix}:ip:${IP}:${Math.floor(Date.now() / windowMs)}`;
      await redis.evalsha(sha, [key], [LIMIT, windowMs, 1]);
    };
    for (const [label, concurrency] of [
      ['sequential', 1],
      [`${IN_FLIGHT} in flight`, IN_FLIGHT],
    ] as const) {
      const [rawRate, bridgeRate, checkRate] = (await compare([raw, viaBridge, checkOp(bridged)], concurrency)) as [
        number,
        number,
        number,
      ];
      out[`raw node-redis EVALSHA /s (${label})`] = rawRate;
      out[`EVALSHA via @upstash/redis + bridge /s (${label})`] = bridgeRate;
      out[`check() via @upstash/ratelimit + bridge /s (${label})`] = checkRate;
      out[`bridge cost over raw EVALSHA % (${label}; goal < 15)`] = (rawRate / bridgeRate - 1) * 100;
      out[`check() cost over raw EVALSHA % (${label})`] = (rawRate / checkRate - 1) * 100;
    }
  } finally {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 100 }))
      if (keys.length) await client.del(keys);
    await client.quit();
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchRateLimit(), null, 2));
}
