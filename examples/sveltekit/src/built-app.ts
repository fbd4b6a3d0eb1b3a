/**
 * The SvelteKit example as the tests run it: `vite build` into a fresh
 * `.test-build/<id>/` folder (adapter-node's server in `build/`), then
 * `node build/index.js` on a free port with a temporary SQLite file.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, startServer, type ServerProcess } from './test-process.js';

/** The example's folder. */
export const EXAMPLE_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
/** The admin the tests' server seeds. */
export const TEST_ADMIN = { email: 'admin@example.com', password: 'admin-password-1' };
/** The webhook secret the tests' server verifies with. */
export const TEST_WEBHOOK_SECRET = 'test-webhook-secret';

/**
 * Builds the example and starts adapter-node's server; `stop()` ends the
 * server and removes the build and the database.
 */
export async function startBuiltApp(name: string): Promise<ServerProcess> {
  await mkdir(join(EXAMPLE_DIR, '.test-build'), { recursive: true });
  const out = await mkdtemp(join(EXAMPLE_DIR, '.test-build', `${name}-`));
  const data = await mkdtemp(join(tmpdir(), `example-sveltekit-${name}-`));
  const cleanup = () => Promise.all([rm(out, { recursive: true, force: true }), rm(data, { recursive: true, force: true })]);
  try {
    await run(process.execPath, [join(EXAMPLE_DIR, '../../node_modules/vite/bin/vite.js'), 'build'], EXAMPLE_DIR, { KIT_OUT: out });
    const server = await startServer([join(out, 'build/index.js')], EXAMPLE_DIR, {
      DB_PATH: join(data, 'app.db'),
      LOGIN_RATE_LIMIT: '1000',
      MAIL_LOG: 'off',
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    });
    return {
      baseUrl: server.baseUrl,
      async stop() {
        await server.stop();
        await cleanup();
      },
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
