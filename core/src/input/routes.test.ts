/**
 * The class test of input hygiene through the email-password routes (`createAuth({ emailAndPassword })`): sign-up
 * (address and name), forgot password, resend verification and email change answer 400 `INVALID_REQUEST` to each
 * hostile character and store nothing, send nothing. The sign-up name cases pass once the route reads the name
 * with `parseDisplayName` (until then `passwordAccounts.register` refuses most of them after the route trimmed).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createAuth } from '../auth.js';
import { createMemoryAdapter } from '../storage/memory.js';
import { createEmailVerificationRateLimiter, createPasswordResetRateLimiter } from '../rate-limit/factories.js';
import { createFixedWindowStorage } from '../rate-limit/storage.js';
import { ORIGIN, SECRET, TestClient } from '../testing/fixtures.js';
import { HOSTILE_CHARACTERS, hostileAddresses, hostileNames } from './hostile.fixtures.js';

const PASSWORD = 'correct horse battery';
const OWNER = 'owner@example.com';

async function setup() {
  const adapter = createMemoryAdapter();
  const outbox: string[] = [];
  const auth = createAuth({
    secret: SECRET,
    baseURL: ORIGIN,
    adapter,
    providers: [],
    // Hundreds of refusals from one client: a limiter would answer 429 before the parser does.
    rateLimit: {
      login: false,
      passwordReset: createPasswordResetRateLimiter(createFixedWindowStorage(), { limit: 10_000 }),
      emailVerification: createEmailVerificationRateLimiter(createFixedWindowStorage(), { limit: 10_000 }),
    },
    logger: { error: () => {}, warn: () => {} },
    emailAndPassword: {
      sendVerificationEmail: (mail) => void outbox.push(`verify:${mail.email}`),
      sendResetPassword: (mail) => void outbox.push(`reset:${mail.email}`),
      sendEmailChangeNotice: (mail) => void outbox.push(`notice:${mail.email}`),
    },
  });
  const owner = new TestClient(auth);
  expect((await owner.postJson('/auth/signup', { email: OWNER, password: PASSWORD })).status).toBe(200);
  await new Promise((r) => setTimeout(r, 0)); // mails are sent without being awaited
  outbox.length = 0;
  const userCount = async () => (await adapter.listUsers!({ limit: 100 })).users.length;
  return { auth, adapter, outbox, owner, userCount };
}

let env: Awaited<ReturnType<typeof setup>>;
beforeAll(async () => {
  env = await setup();
});

async function refused(res: Response, label: string): Promise<void> {
  expect(res.status, label).toBe(400);
  expect(((await res.json()) as { error: { code: string } }).error.code, label).toBe('INVALID_REQUEST');
}

const settled = () => new Promise((r) => setTimeout(r, 0));

describe.each(HOSTILE_CHARACTERS)('email-password routes, a value with %s', (_label, char) => {
  it('sign-up: 400 for the address, nobody created, no mail', async () => {
    const before = await env.userCount();
    for (const email of hostileAddresses(char))
      await refused(
        await new TestClient(env.auth).postJson('/auth/signup', { email, password: PASSWORD }),
        JSON.stringify(email),
      );
    await settled();
    expect(await env.userCount()).toBe(before);
    expect(env.outbox).toEqual([]);
  });

  it('sign-up: 400 for the name, nobody created, no mail', async () => {
    const before = await env.userCount();
    for (const name of hostileNames(char))
      await refused(
        await new TestClient(env.auth).postJson('/auth/signup', { email: 'new@example.com', password: PASSWORD, name }),
        JSON.stringify(name),
      );
    await settled();
    expect(await env.userCount()).toBe(before);
    expect(env.outbox).toEqual([]);
  });

  it('forgot password and resend verification: 400, no mail', async () => {
    for (const email of hostileAddresses(char)) {
      const c = new TestClient(env.auth);
      await refused(await c.postJson('/auth/password/forgot', { email }), JSON.stringify(email));
      await refused(await c.postJson('/auth/verify-email/send', { email }), JSON.stringify(email));
    }
    await settled();
    expect(env.outbox).toEqual([]);
  });

  it('email change: 400 for the new address, no link sent, the address unchanged', async () => {
    for (const newEmail of hostileAddresses(char))
      await refused(
        await env.owner.postJson('/auth/email/change', { newEmail, password: PASSWORD }),
        JSON.stringify(newEmail),
      );
    await settled();
    expect(env.outbox).toEqual([]);
    expect(await env.adapter.getUserByEmail(OWNER)).not.toBeNull();
  });
});
