/**
 * An auth instance for tests of the emailed account links: memory storage, email and password accounts whose mails
 * (verification, reset, email-change notice) land in an outbox, plus whatever providers and plugins a test adds
 * (their mail hooks can push to the same outbox).
 * @internal
 * @module
 */
import { expect } from 'vitest';
import { createAuth, type CreateAuthOptions } from '../auth.js';
import { createMemoryAdapter } from '../storage/memory.js';
import { ORIGIN, SECRET, TestClient } from '../testing/fixtures.js';

/** The password of every person the fixture signs up. */
export const LINKS_PASSWORD = 'correct horse battery';

/** A mail in the outbox: its kind (`verify`, `reset`, `notice`, or a test's own), recipient and link. */
export interface OutboxMail {
  kind: string;
  to: string;
  url: string;
}

/**
 * The fixture. `extra(outbox)` returns more `createAuth` options (providers, plugins) whose hooks may push to the
 * outbox.
 */
export function accountLinksFixture(
  strategy: 'database' | 'jwt',
  extra: (outbox: OutboxMail[]) => Partial<CreateAuthOptions> = () => ({}),
) {
  const adapter = createMemoryAdapter();
  const outbox: OutboxMail[] = [];
  const auth = createAuth({
    secret: SECRET,
    baseURL: ORIGIN,
    adapter,
    session: { strategy },
    logger: { error: () => {}, warn: () => {} },
    rateLimit: { login: false },
    providers: [],
    emailAndPassword: {
      sendVerificationEmail: ({ email: to, url }) => void outbox.push({ kind: 'verify', to, url }),
      sendResetPassword: ({ email: to, url }) => void outbox.push({ kind: 'reset', to, url }),
      sendEmailChangeNotice: ({ email: to, url }) => void outbox.push({ kind: 'notice', to, url }),
    },
    ...extra(outbox),
  });
  const client = () => new TestClient(auth);
  /** The link of the latest `kind` mail to `to` (mails sent without being awaited included). */
  const mail = async (kind: string, to: string) => {
    await new Promise((r) => setTimeout(r, 0));
    const found = outbox.filter((m) => m.kind === kind && m.to === to).at(-1);
    if (!found) throw new Error(`no ${kind} mail to ${to}`);
    return found.url;
  };
  /** A signed-up person (`<name>@example.com`) with a verified address, signed in. */
  const person = async (name: string) => {
    const c = client();
    const address = `${name}@example.com`;
    expect((await c.postJson('/auth/signup', { email: address, password: LINKS_PASSWORD })).status).toBe(200);
    const user = (await adapter.getUserByEmail(address))!;
    await adapter.updateUser(user.id, { emailVerified: new Date() });
    return { c, id: user.id, address };
  };
  return { auth, adapter, client, mail, person };
}
