import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoginRateLimiter } from '../rate-limit.js';
import { createFixedWindowStorage, createSlidingWindowStorage } from '../rate-limit-upstash.js';

const REDIS_SERVER = '/usr/bin/redis-server';
const haveBinary = existsSync(REDIS_SERVER);
if (!haveBinary) {
  const message = `${REDIS_SERVER} not found; the Redis outage test cannot run`;
  if (process.env.CI === 'true') throw new Error(`${message} (CI=true: failing instead of skipping)`);
  console.warn(`SKIPPED: ${message}.`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, up: boolean): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open === up) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`port ${port} did not become ${up ? 'reachable' : 'closed'}`);
}

describe.runIf(haveBinary)('Redis stopped mid-test', () => {
  let server: ChildProcess | undefined;
  let client: ReturnType<typeof createClient>;
  // No 'error' listener of its own: the storage must attach one, or node-redis's
  // reconnect errors would crash the process (vitest fails on the uncaught error).
  let bare: ReturnType<typeof createClient>;
  const errors: unknown[] = [];

  beforeAll(async () => {
    const port = await freePort();
    server = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await waitForPort(port, true);
    client = createClient({ url: `redis://127.0.0.1:${port}`, socket: { reconnectStrategy: () => 100 } });
    client.on('error', (e) => errors.push(e));
    await client.connect();
    bare = createClient({ url: `redis://127.0.0.1:${port}`, socket: { reconnectStrategy: () => 100 } });
    await bare.connect();
  });

  afterAll(async () => {
    if (server && server.exitCode === null) server.kill('SIGKILL');
    client.destroy();
    bare.destroy();
  });

  it('keeps the fail policy for both failOpen values and answers within the timeout', async () => {
    const logger = { warn: () => {}, error: () => {} };
    const closed = createLoginRateLimiter(createFixedWindowStorage(client), {
      limit: 2,
      window: 60,
      timeout: 300,
      logger,
    });
    const open = createLoginRateLimiter(createSlidingWindowStorage(bare), {
      limit: 2,
      window: 60,
      timeout: 300,
      failOpen: true,
      logger,
    });
    const req = () => new Request('http://x/', { method: 'POST' });

    // Up: both count normally.
    expect((await closed.check(req(), { ip: '192.0.2.1' })).success).toBe(true);
    expect((await open.check(req(), { ip: '192.0.2.1' })).success).toBe(true);

    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server!.kill('SIGTERM');
    await exited;

    for (let round = 0; round < 3; round++) {
      // Fresh IPs, so no cached refusal can answer without Redis.
      let started = performance.now();
      const refused = await closed.check(req(), { ip: `198.51.100.${round}` });
      expect(performance.now() - started).toBeLessThan(300 + 1_700);
      expect(refused).toMatchObject({ success: false, code: 'RATE_LIMIT_UNAVAILABLE' });
      expect(refused.response!.status).toBe(503);

      started = performance.now();
      const allowed = await open.check(req(), { ip: `198.51.100.${round}` });
      expect(performance.now() - started).toBeLessThan(300 + 1_700);
      expect(allowed).toMatchObject({ success: true, code: 'RATE_LIMIT_UNAVAILABLE' });
    }
  });
});
