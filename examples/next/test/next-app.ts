/**
 * The Next.js example as its tests run it: `next build` through the shared build-if-stale helper (build.mjs, into
 * `build/`, as `npm run build` and `npm start` do, so a build whose sources did not change is reused), then `server.mjs` on a free port over a
 * temporary SQLite file. The build is a production build, so the server gets what production needs: AUTH_SECRET,
 * a WEBHOOK_SECRET of 32 characters or more, and its origin (ORIGIN, from the shared helper).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, TEST_ADMIN, type ServerProcess } from '@framework/example-shared/testing/process';
import { buildNextExample } from '../build.mjs';

export const EXAMPLE_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

/** The webhook secret this run's server verifies with. */
export const WEBHOOK_SECRET = randomBytes(32).toString('hex');

/** Builds the example when its sources changed, and starts it; `stop()` ends it and removes its database. */
export async function startNextExample(): Promise<ServerProcess> {
  await buildNextExample();
  const data = await mkdtemp(join(tmpdir(), 'example-next-'));
  try {
    const server = await startServer([join(EXAMPLE_DIR, 'server.mjs')], EXAMPLE_DIR, {
      NEXT_TELEMETRY_DISABLED: '1',
      DB_PATH: join(data, 'app.db'),
      LOGIN_RATE_LIMIT: '1000',
      MAIL_LOG: 'off',
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      AUTH_SECRET: randomBytes(32).toString('hex'),
      WEBHOOK_SECRET,
    });
    return {
      baseUrl: server.baseUrl,
      stop: async () => {
        await server.stop();
        await rm(data, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(data, { recursive: true, force: true });
    throw error;
  }
}
