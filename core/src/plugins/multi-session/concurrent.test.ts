/**
 * `multiSession()`: two sign-ins in one browser at once (two tabs), as two concurrent `auth.handler` calls carrying
 * the same cookies. The account that was active continues as one session shared by both answers (never two, one of
 * them left behind); the browser keeps the answer it applies last; a sign-in that carries the first's cookies keeps
 * both; a request replaying the rotated token after the sign-in gets nothing from it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { AuthPlugin } from '../../contract/types.js';
import { unseal } from '../../http/sealed.js';
import { passwordAccounts } from '../../password-accounts.js';
import type { StorageAdapter } from '../../storage/types.js';
import { EMAIL, ORIGIN, PASSWORD, SECRET, makeFixture, type TestClient } from '../../testing/fixtures.js';
import { clientsOwnAddress, emails, multiSessionAdapters, SET_COOKIE, signInAs } from './fixture.test-helpers.js';
import { multiSession } from './index.js';

const { adapters, dropAll } = await multiSessionAdapters('multi_session_race');
afterAll(dropAll);

const GRACE = 'grace@example.com';
const HOPPER = 'hopper@example.com';
const clock = { now: () => Date.now() };

/**
 * `plugins` go before `multiSession()`: a test plugin's `beforeSession` may hold a sign-in back there until an
 * event, which orders the two requests' steps without waiting for time.
 */
async function setup(open: () => Promise<StorageAdapter>, plugins: AuthPlugin[] = []) {
  const adapter = await open();
  const f = await makeFixture('database', { adapter, baseURL: ORIGIN, plugins: [...plugins, multiSession()] });
  await f.auth.migrate();
  const passwords = passwordAccounts(adapter);
  await passwords.register({ email: GRACE, password: PASSWORD, name: 'Grace' });
  await passwords.register({ email: HOPPER, password: PASSWORD, name: 'Hopper' });
  return { ...f, client: clientsOwnAddress(() => f.client()) };
}

/** A credentials sign-in as `email` carrying the browser's cookies as they are now (a tab submitting). */
async function signInRequest(c: TestClient, email: string, tab: string): Promise<Request> {
  const csrfToken = await c.csrf();
  return new Request(`${ORIGIN}/auth/callback/credentials`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', cookie: c.cookieHeader(), 'x-tab': tab },
    body: JSON.stringify({ csrfToken, email, password: PASSWORD }),
  });
}

/** The tokens an answer seals in the set cookie. */
async function sealedIn(res: Response): Promise<string[]> {
  const line = res.headers.getSetCookie().find((l) => l.startsWith(`${SET_COOKIE}=`));
  const value = line?.split(';')[0]!.slice(SET_COOKIE.length + 1);
  return ((await unseal(value, SECRET, 'multi-session', clock))?.t as string[] | undefined) ?? [];
}

describe.each(adapters)('multiSession() concurrent sign-ins in one browser, on %s', (_name, open) => {
  it('two tabs at once: one continuation of the active account in both answers; the answer applied last wins', async () => {
    const f = await setup(open);
    const c = f.client();
    await signInAs(c, EMAIL);
    const [one, two] = [await signInRequest(c, GRACE, '1'), await signInRequest(c, HOPPER, '2')];
    const [r1, r2] = await Promise.all([f.auth.handler(one), f.auth.handler(two)]);
    expect([r1.status, r2.status]).toStrictEqual([200, 200]);
    // Ada goes on as one session, the same in both answers: none is left live outside the browser.
    const [set1, set2] = [await sealedIn(r1), await sealedIn(r2)];
    expect(set1).toHaveLength(1);
    expect(set2).toStrictEqual(set1);
    const ada = await f.adapter.listSessions(f.userId);
    expect(ada.map((s) => s.id)).toStrictEqual([set1[0]!.split('.')[0]]);

    const other = f.client();
    for (const [name, value] of c.cookies) other.cookies.set(name, value);
    c.store(r1);
    c.store(r2);
    expect(await emails(c)).toStrictEqual([
      [HOPPER, true],
      [EMAIL, false],
    ]);
    // Applied the other way round, the other tab's answer wins: the same rule, whichever order.
    other.store(r2);
    other.store(r1);
    expect(await emails(other)).toStrictEqual([
      [GRACE, true],
      [EMAIL, false],
    ]);
  });

  it('a tab whose sign-in reaches its last step after the other rotated the token still shares its continuation', async () => {
    let release!: () => void;
    const firstAnswered = new Promise<void>((resolve) => (release = resolve));
    // Tab 2 is held before its `beforeSession` until tab 1's answer is out: it then finds the token rotated away.
    const holdBack: AuthPlugin = {
      id: 'holdBack',
      hooks: {
        beforeSession: async (ctx) => {
          if (ctx.request.headers.get('x-tab') === '2') await firstAnswered;
          return undefined;
        },
      },
    };
    const f = await setup(open, [holdBack]);
    const c = f.client();
    await signInAs(c, EMAIL);
    const [one, two] = [await signInRequest(c, GRACE, '1'), await signInRequest(c, HOPPER, '2')];
    const second = f.auth.handler(two);
    const first = f.auth.handler(one).finally(release);
    const [r1, r2] = await Promise.all([first, second]);
    expect([r1.status, r2.status]).toStrictEqual([200, 200]);
    const [set1, set2] = [await sealedIn(r1), await sealedIn(r2)];
    expect(set1).toHaveLength(1);
    expect(set2).toStrictEqual(set1);
    expect(await f.adapter.listSessions(f.userId)).toHaveLength(1);
    c.store(r1);
    c.store(r2);
    expect(await emails(c)).toStrictEqual([
      [HOPPER, true],
      [EMAIL, false],
    ]);
  });

  it('a sign-in carrying the first one’s cookies keeps both', async () => {
    const f = await setup(open);
    const c = f.client();
    await signInAs(c, EMAIL);
    const r1 = await f.auth.handler(await signInRequest(c, GRACE, '1'));
    c.store(r1);
    const r2 = await f.auth.handler(await signInRequest(c, HOPPER, '2'));
    c.store(r2);
    expect(await emails(c)).toStrictEqual([
      [HOPPER, true],
      [GRACE, false],
      [EMAIL, false],
    ]);
    expect(await f.adapter.listSessions(f.userId)).toHaveLength(1);
  });

  it('the rotated token replayed after the sign-in finished gets nothing of the account it held', async () => {
    const f = await setup(open);
    const c = f.client();
    await signInAs(c, EMAIL);
    const stale = f.client();
    for (const [name, value] of c.cookies) stale.cookies.set(name, value);
    c.store(await f.auth.handler(await signInRequest(c, GRACE, '1')));
    const replay = await f.auth.handler(await signInRequest(stale, HOPPER, '2'));
    expect(replay.status).toBe(200);
    expect(await sealedIn(replay)).toStrictEqual([]);
    stale.store(replay);
    expect(await emails(stale)).toStrictEqual([[HOPPER, true]]);
    // The browser that signed in keeps Ada, as one session.
    expect(await emails(c)).toStrictEqual([
      [GRACE, true],
      [EMAIL, false],
    ]);
    expect(await f.adapter.listSessions(f.userId)).toHaveLength(1);
  });
});
