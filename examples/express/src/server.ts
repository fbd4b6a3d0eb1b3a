/**
 * Starts the Express example on http://localhost:3000 (PORT overrides).
 */
import { createExpressExample } from './app.js';

const port = Number(process.env.PORT ?? 3000);
const example = await createExpressExample({
  dbPath: process.env.DB_PATH ?? '.data/example.db',
  ...(process.env.AUTH_SECRET ? { secret: process.env.AUTH_SECRET } : {}),
  ...(process.env.ADMIN_EMAIL && process.env.ADMIN_PASSWORD
    ? { admin: { email: process.env.ADMIN_EMAIL, password: process.env.ADMIN_PASSWORD } }
    : {}),
});

await example.triggers.start();

const server = example.app.listen(port, process.env.HOST ?? '0.0.0.0', () => {
  console.log(`express example listening on http://localhost:${port}`);
});

const shutdown = () => {
  server.close(() => {
    void example.close().then(() => process.exit(0));
  });
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
