/**
 * Starts the Fastify example on http://localhost:3000 (PORT overrides).
 */
import { createFastifyExample } from './app.js';

const port = Number(process.env.PORT ?? 3000);
const example = await createFastifyExample({
  dbPath: process.env.DB_PATH ?? '.data/example.db',
  ...(process.env.AUTH_SECRET ? { secret: process.env.AUTH_SECRET } : {}),
  ...(process.env.ADMIN_EMAIL && process.env.ADMIN_PASSWORD
    ? { admin: { email: process.env.ADMIN_EMAIL, password: process.env.ADMIN_PASSWORD } }
    : {}),
});

await example.triggers.start();
await example.app.listen({ port, host: process.env.HOST ?? '0.0.0.0' });
console.log(`fastify example listening on http://localhost:${port}`);

const shutdown = () => {
  void example.close().then(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
