/**
 * Starts the example app on http://localhost:3000 (PORT overrides), listening
 * on 127.0.0.1 unless HOST says otherwise.
 */
import { serve } from '@hono/node-server';
import { createExampleApp } from './app.js';
import { startDevOidc } from './dev-oidc.js';
import { startCompanyIdp } from './company-idp.js';
import { createDevDns } from './dev-dns.js';
import { seedAcmeSso } from './sso-seed.js';
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
// In development a second small app is Acme's "company" identity provider (company-idp.ts) on its own port
// (COMPANY_IDP_PORT, default 3001; COMPANY_IDP=off disables it), and a stand-in for DNS proves acme.test.
const companyIdp =
  process.env.NODE_ENV !== 'production' && process.env.COMPANY_IDP !== 'off'
    ? await startCompanyIdp({ appOrigin: origin, port: Number(process.env.COMPANY_IDP_PORT ?? 3001) })
    : null;
const devDns = companyIdp ? createDevDns() : null;
// AUTH_SECRET, or (outside production) one generated on first start and kept beside the database: every
// feature is on (two-factor, API keys, access tokens, ...).
const example = await createExampleApp({
  dbPath,
  secret: exampleSecret(process.env, dirname(dbPath)),
  baseURL: origin,
  ...(devOidc ? { devOidcIssuer: devOidc.issuer } : {}),
  ...(devDns ? { ssoResolveTxt: devDns.resolveTxt } : {}),
  ...(process.env.SMTP_URL ? { smtpUrl: process.env.SMTP_URL } : {}),
  origin,
});
if (devOidc) console.log(`dev OpenID provider at ${devOidc.issuer}`);
if (companyIdp && devDns) {
  console.log(`company IdP of Acme at ${companyIdp.issuer} (SSO: ada@acme.test, password acme-password)`);
  // The SSO demo signs in as the demo admin to seed Acme; if that account was changed, the app still starts.
  await seedAcmeSso({ auth: example.auth, adapter: example.adapter, origin }, companyIdp, devDns).catch(
    (error: unknown) => console.warn(`The SSO demo was not seeded: ${error instanceof Error ? error.message : error}`),
  );
}
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
    void Promise.all([example.close(), devOidc?.stop(), companyIdp?.stop(), inbound?.close()]).then(() =>
      process.exit(0),
    );
  });
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
