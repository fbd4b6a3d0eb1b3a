/**
 * One app instance of the soak test: Hono + authSession (default scope) on
 * PostgreSQL (schema from argv) with Redis secondary storage (channel from
 * argv). Prints `PORT <n>` once listening. Routes: `/me` (200 with the user
 * id, or 401), `/__rss` (resident set size in bytes), and the auth routes.
 */
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import pg from 'pg';
import { createClient } from 'redis';
import { createAuth, credentials, createPostgresAdapter } from '@framework/auth';
import { redisSecondaryStorage } from '@framework/auth/redis';
import { authSession, mountAuth, type AuthVariables } from '@framework/hono';
import { SECRET } from './fixtures.js';

const [schema, channel] = process.argv.slice(2) as [string, string];
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  max: 10,
  options: `-c search_path=${schema}`,
});
const client = await createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }).connect();
const secondaryStorage = redisSecondaryStorage(client, { channel });
const auth = createAuth({
  session: { strategy: 'database' },
  secret: SECRET,
  adapter: createPostgresAdapter({ pool }),
  secondaryStorage,
  rateLimit: { login: false },
  providers: [credentials({ credentials: { email: { label: 'E', type: 'email' } }, authorize: async () => null })],
});
await secondaryStorage.ready();

const app = new Hono<{ Variables: AuthVariables }>();
app.get('/__rss', (c) => c.text(String(process.memoryUsage().rss)));
mountAuth(app, auth);
app.use('*', authSession(auth));
app.get('/me', (c) => {
  const user = c.get('user');
  return user ? c.text(user.id) : c.text('anonymous', 401);
});
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
  process.stdout.write(`PORT ${info.port}\n`),
);
process.on('SIGTERM', () =>
  server.close(async () => {
    await secondaryStorage.close();
    await client.quit();
    await pool.end();
    process.exit(0);
  }),
);
