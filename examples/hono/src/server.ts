/**
 * Starts the example app on http://localhost:3000 (PORT overrides).
 */
import { serve } from '@hono/node-server';
import { createExampleApp } from './app.js';

const port = Number(process.env.PORT ?? 3000);
const example = await createExampleApp({
  dbPath: process.env.DB_PATH ?? '.data/example.db',
  ...(process.env.AUTH_SECRET ? { secret: process.env.AUTH_SECRET } : {}),
});

const server = serve({ fetch: example.app.fetch, port, hostname: process.env.HOST ?? '0.0.0.0' }, (info) => {
  console.log(`example app listening on http://localhost:${info.port}`);
});

const shutdown = () => {
  server.close(() => {
    void example.close().then(() => process.exit(0));
  });
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
