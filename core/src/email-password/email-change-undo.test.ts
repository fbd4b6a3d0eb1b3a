/**
 * The undo link of an email change, attacked: someone holding a user's session (or password) changes the address,
 * possibly twice, and adds their own ways in; the person at the old address takes the account back, and keeps it.
 */
import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import { apiKeys } from '../plugins/api-keys/plugin.js';
import { createMemoryApiKeyStorage } from '../plugins/api-keys/storage/memory.js';
import { twoFactor } from '../plugins/two-factor/plugin.js';
import { createMemoryTwoFactorStorage } from '../plugins/two-factor/storage/memory.js';
import { ORIGIN, TestClient } from '../testing/fixtures.js';
import { LINKS_PASSWORD, accountLinksFixture } from './account-links.test-helpers.js';

const PASSWORD = LINKS_PASSWORD;

function setup(strategy: 'database' | 'jwt') {
  const twoFactorStorage = createMemoryTwoFactorStorage();
  const { auth, adapter, client, mail, person } = accountLinksFixture(strategy, () => ({
    plugins: [apiKeys({ storage: createMemoryApiKeyStorage() }), twoFactor({ storage: twoFactorStorage })],
  }));
  /** A client holding a copy of `victim`'s session cookie. */
  const hijack = (victim: TestClient) => {
    const thief = client();
    for (const [k, v] of victim.cookies) if (k.includes('session')) thief.cookies.set(k, v);
    return thief;
  };
  /** Changes the address from the given (signed-in) client, confirming from the same client. */
  const changeEmail = async (c: TestClient, to: string) => {
    expect((await c.postJson('/auth/email/change', { newEmail: to })).status).toBe(200);
    expect((await c.followLink(await mail('verify', to))).status).toBe(303);
  };
  const withKey = (key: string) =>
    auth.getSession(new Request(`${ORIGIN}/x`, { headers: { authorization: `Bearer ${key}` } }));
  return { auth, adapter, client, mail, person, hijack, changeEmail, withKey, twoFactorStorage };
}

describe.each(['database', 'jwt'] as const)('undoing an email change (%s sessions)', (strategy) => {
  it('removes every way in the hijacker added (password, API key, second factor) and leads to a new password', async () => {
    const { adapter, client, mail, person, hijack, changeEmail, withKey, twoFactorStorage } = setup(strategy);
    const ada = await person('ada');
    const thief = hijack(ada.c);
    const created = await thief.postJson('/auth/api-keys', { name: 'mine' });
    expect(created.status).toBe(201);
    const { key } = (await created.json()) as { key: string };
    const enabled = await thief.postJson('/auth/two-factor/enable', { password: PASSWORD });
    const totp = OTPAuth.URI.parse(((await enabled.json()) as { totpURI: string }).totpURI) as OTPAuth.TOTP;
    expect(
      (await thief.postJson('/auth/two-factor/confirm', { code: totp.generate({ timestamp: Date.now() }) })).status,
    ).toBe(200);
    await changeEmail(thief, 'thief@example.com');
    expect((await withKey(key)).user?.id).toBe(ada.id);

    const person_ = client();
    const undone = await person_.followLink(await mail('notice', 'ada@example.com'));
    expect(undone.status).toBe(303);
    const next = new URL(undone.headers.get('location')!);
    expect(next.pathname).toBe('/auth/password/reset');
    expect((await adapter.getUser(ada.id))!.email).toBe('ada@example.com');
    // Every way in is gone: the key, the second factor, the password, every session.
    expect((await withKey(key)).user).toBeNull();
    expect(await twoFactorStorage.get(ada.id)).toBeNull();
    expect(await adapter.listAccounts(ada.id)).toStrictEqual([]);
    expect(await thief.session()).toBeNull();
    expect((await client().signIn('ada@example.com', PASSWORD)).status).toBe(401);
    // The person chooses a new password on the page the undo led to, and signs in without a second factor.
    expect((await person_.followLink(next.href, { password: 'ada new password 1' })).status).toBe(303);
    const back = client();
    expect((await back.signIn('ada@example.com', 'ada new password 1')).status).toBe(200);
    expect((await back.session())?.user.email).toBe('ada@example.com');
  });

  it("the hijacker's own undo link (from a second change) is withdrawn by the owner's undo", async () => {
    const { adapter, client, mail, person, hijack, changeEmail } = setup(strategy);
    const ada = await person('ada');
    const thief = hijack(ada.c);
    await changeEmail(thief, 'thief@example.com');
    await changeEmail(thief, 'thief2@example.com');
    const thiefUndo = await mail('notice', 'thief@example.com');
    expect((await client().followLink(await mail('notice', 'ada@example.com'))).status).toBe(303);
    expect((await adapter.getUser(ada.id))!.email).toBe('ada@example.com');
    expect((await client().followLink(thiefUndo)).status).toBe(400);
    expect((await adapter.getUser(ada.id))!.email).toBe('ada@example.com');
  });

  it("using the hijacker's later undo link first leaves the owner's earlier one working", async () => {
    const { adapter, client, mail, person, hijack, changeEmail } = setup(strategy);
    const ada = await person('ada');
    const thief = hijack(ada.c);
    await changeEmail(thief, 'thief@example.com');
    await changeEmail(thief, 'thief2@example.com');
    expect((await client().followLink(await mail('notice', 'thief@example.com'))).status).toBe(303);
    expect((await adapter.getUser(ada.id))!.email).toBe('thief@example.com');
    expect((await client().followLink(await mail('notice', 'ada@example.com'))).status).toBe(303);
    expect((await adapter.getUser(ada.id))!.email).toBe('ada@example.com');
  });

  it('an unverified account that took the old address meanwhile loses it; a verified one gets 409 and the link keeps working', async () => {
    const { adapter, client, mail, person, hijack, changeEmail } = setup(strategy);
    const ada = await person('ada');
    await changeEmail(hijack(ada.c), 'thief@example.com');
    const undo = await mail('notice', 'ada@example.com');
    // Someone signs up with the freed address (without proving it).
    const squatter = client();
    expect(
      (await squatter.postJson('/auth/signup', { email: 'ada@example.com', password: 'squatter pw 1' })).status,
    ).toBe(200);
    const squatterId = (await adapter.getUserByEmail('ada@example.com'))!.id;
    // Had they proven it, the undo would be refused, and the link not used up.
    await adapter.updateUser(squatterId, { emailVerified: new Date() });
    expect((await client().followLink(undo)).status).toBe(409);
    await adapter.updateUser(squatterId, { emailVerified: null });
    expect((await client().followLink(undo)).status).toBe(303);
    expect((await adapter.getUser(ada.id))!.email).toBe('ada@example.com');
    expect((await adapter.getUser(squatterId))!.email).toBeNull();
    expect(await squatter.session()).toBeNull();
  });
});
