/**
 * Starts the example app on http://localhost:3000 (PORT overrides), listening
 * on 127.0.0.1 unless HOST says otherwise.
 */
import { serve } from '@hono/node-server';
import { createExampleApp } from './app.js';
import { startDevOidc } from './dev-oidc.js';
import { startInboundMail } from './inbound-mail.js';
import { listenAddress } from './listen.js';
import { exampleSecret } from './dev-secret.js';
import { dirname } from 'node:path';

const { port, hostname } = listenAddress();
// In development a local OpenID provider runs beside the app ("Dev OIDC"); DEV_OIDC=off disables it.
const devOidc =
  process.env.NODE_ENV !== 'production' && process.env.DEV_OIDC !== 'off'
    ? await startDevOidc(Number(process.env.DEV_OIDC_PORT ?? 0))
    : null;
const dbPath = process.env.DB_PATH ?? '.data/example.db';
const origin = process.env.APP_ORIGIN ?? `http://localhost:${port}`;
// AUTH_SECRET, or (outside production) one generated on first start and kept beside the database: every
// feature is on (two-factor, API keys, access tokens, ...).
const example = await createExampleApp({
  dbPath,
  secret: exampleSecret(process.env, dirname(dbPath)),
  baseURL: origin,
  ...(devOidc ? { devOidcIssuer: devOidc.issuer } : {}),
  ...(process.env.SMTP_URL ? { smtpUrl: process.env.SMTP_URL } : {}),
  origin,
});
if (devOidc) console.log(`dev OpenID provider at ${devOidc.issuer}`);
await example.runtime.start();
// In development an SMTP listener takes inbound mail for the inbound-note trigger (port 2525,
// SMTP_INBOUND_PORT overrides).
const inbound =
  process.env.NODE_ENV !== 'production'
    ? await startInboundMail(example.runtime, { port: Number(process.env.SMTP_INBOUND_PORT ?? 2525) })
    : null;

const server = serve({ fetch: example.app.fetch, port, hostname }, (info) => {
  console.log(`example app listening on http://localhost:${info.port} (bound to ${hostname})`);
});

const shutdown = () => {
  server.close(() => {
    void Promise.all([example.close(), devOidc?.stop(), inbound?.close()]).then(() => process.exit(0));
  });
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
