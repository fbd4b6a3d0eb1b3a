/**
 * `npm run dev:workers`: the example on workerd at http://localhost:8787
 * (PORT overrides), D1 data kept in examples/workers/.data.
 */
import { fileURLToPath } from 'node:url';
import { serveWorker } from './src/serve.js';

const { url } = await serveWorker({
  port: Number(process.env.PORT ?? 8787),
  persistTo: fileURLToPath(new URL('./.data/d1', import.meta.url)),
  ...(process.env.AUTH_SECRET ? { authSecret: process.env.AUTH_SECRET } : {}),
  ...(process.env.WEBHOOK_SECRET ? { webhookSecret: process.env.WEBHOOK_SECRET } : {}),
  ...(process.env.COOKIE_SECURE ? { cookieSecure: process.env.COOKIE_SECURE !== 'false' } : {}),
});
console.log(`example-workers on workerd: ${url.href}`);
