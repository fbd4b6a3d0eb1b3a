/**
 * Real services for tests: PostgreSQL and Redis on 127.0.0.1 (override with
 * DATABASE_URL / REDIS_URL) and Debian's Chromium. When one is missing, the
 * tests that need it are skipped and the run ends with one summary line
 * naming each missing service and the command that starts it
 * (`scripts/summary-reporter.ts`); under CI=true they fail instead.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const MYSQL_URL = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

/** A service some tests need. */
export type Service = 'postgres' | 'redis' | 'mysql' | 'chromium';

/** How to start each service on a Debian machine (also in the README, "Services"). */
export const START_COMMANDS: Record<Service, string> = {
  postgres: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start (or set DATABASE_URL)',
  redis: 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no (or set REDIS_URL)',
  mysql: 'start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd (or set MYSQL_URL)',
  chromium: 'apt-get install -y chromium (or set CHROMIUM_PATH)',
};

/** Where skipped services are noted during a run, one JSON line each; the summary reporter reads and clears it. */
export const SKIPPED_SERVICES_FILE = join(dirname(fileURLToPath(import.meta.url)), '../.cache/skipped-services.jsonl');

/**
 * Reports that `service` is missing for `what` (a suite's description).
 * Under CI=true it throws, so the suite fails and names the service;
 * otherwise it notes the skip for the closing summary and returns false.
 * @throws Error under CI=true.
 */
export function serviceMissing(service: Service, detail: string, what: string): false {
  const message = `${service} is not available (${detail}): ${what} cannot run`;
  if (process.env.CI === 'true')
    throw new Error(`${message}. CI=true: a missing service fails the run. Start it: ${START_COMMANDS[service]}`);
  mkdirSync(dirname(SKIPPED_SERVICES_FILE), { recursive: true });
  appendFileSync(SKIPPED_SERVICES_FILE, `${JSON.stringify({ service, what })}\n`);
  return false;
}

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The test file that called in (from the stack), relative to the repository root, to name what was skipped. */
export function callerFile(): string {
  const here = fileURLToPath(import.meta.url);
  for (const line of (new Error().stack ?? '').split('\n').slice(1)) {
    const m = /(?:file:\/\/)?(\/[^\s():]+\.[cm]?[jt]s)/.exec(line);
    if (
      m &&
      m[1] !== here &&
      !m[1]!.includes('/node_modules/') &&
      !m[1]!.includes('/test-support/') &&
      !m[1]!.endsWith('/browser.ts')
    )
      return relative(REPO_ROOT, m[1]!);
  }
  return 'tests that need it';
}

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
 * Resolves whether tests that need `service` can run. When it is not
 * reachable: throws under CI=true (the run fails, naming the service),
 * otherwise notes the skip for the closing summary and resolves false.
 * @example
 * ```ts
 * const redisUp = await serviceAvailable('redis');
 * describe.skipIf(!redisUp)('on real Redis', () => { ... });
 * ```
 */
export async function serviceAvailable(service: 'postgres' | 'redis' | 'mysql', what = callerFile()): Promise<boolean> {
  const [url, port] = { postgres: [DATABASE_URL, 5432], redis: [REDIS_URL, 6379], mysql: [MYSQL_URL, 3306] }[
    service
  ] as [string, number];
  if (await reachable(url, port)) return true;
  return serviceMissing(service, `not reachable at ${url}`, what);
}
