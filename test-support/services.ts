/**
 * Real services for tests: PostgreSQL and Redis on 127.0.0.1 (override with
 * DATABASE_URL / REDIS_URL). When a service is down, tests that need it are
 * skipped with a printed reason, except under CI=true, where they fail.
 */
import net from 'node:net';

export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

function reachable(url: string, defaultPort: number): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname || '127.0.0.1', port: Number(u.port || defaultPort) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Resolves whether tests that need `service` should run. Prints why when not;
 * throws under CI=true so a missing service fails the run instead of hiding.
 */
export async function serviceAvailable(service: 'postgres' | 'redis'): Promise<boolean> {
  const url = service === 'postgres' ? DATABASE_URL : REDIS_URL;
  const ok = await reachable(url, service === 'postgres' ? 5432 : 6379);
  if (ok) return true;
  const message = `${service} is not reachable at ${url}; tests that need it cannot run`;
  if (process.env.CI === 'true') throw new Error(`${message} (CI=true: failing instead of skipping)`);
  console.warn(`SKIPPED: ${message}. Start it (see README, "Services") or set ${service === 'postgres' ? 'DATABASE_URL' : 'REDIS_URL'}.`);
  return false;
}
