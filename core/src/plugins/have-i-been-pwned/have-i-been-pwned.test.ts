/**
 * `haveIBeenPwned()` through `auth.handler`, against a local range API (a real server on port 0): what leaves the
 * process (k-anonymity, padding), breached passwords refused on sign-up, reset and change, and the policy when
 * the API cannot be reached.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuth, createMemoryAdapter } from '../../index.js';
import { ORIGIN, SECRET, TestClient } from '../../testing/fixtures.js';
import { haveIBeenPwned, pwnedCount, type HaveIBeenPwnedOptions } from './index.js';
import { fakeRangeServer, sha1, type FakeRange } from './fake-range.test-helpers.js';

const BREACHED = 'password1234';
const RARE = 'breached twice only';
const PADDED = 'listed with count zero';
const GOOD = 'correct horse battery staple';

let range: FakeRange;
beforeAll(async () => {
  range = await fakeRangeServer({ [BREACHED]: 2_000_000, [RARE]: 2, [PADDED]: 0 });
});
afterAll(() => range.close());

function setup(options: HaveIBeenPwnedOptions = {}) {
  const adapter = createMemoryAdapter();
  const logs: string[] = [];
  let mailed: (url: string) => void = () => {};
  /** The URL of the next reset mail, once it is sent. */
  const nextResetUrl = () => new Promise<string>((resolve) => (mailed = resolve));
  const auth = createAuth({
    secret: SECRET,
    baseURL: ORIGIN,
    adapter,
    providers: [],
    logger: { error: (m) => void logs.push(`error ${m}`), warn: (m) => void logs.push(`warn ${m}`) },
    emailAndPassword: { sendResetPassword: ({ url }) => mailed(url) },
    plugins: [haveIBeenPwned({ endpoint: range.endpoint, ...options })],
  });
  const client = new TestClient(auth);
  client.ip = '203.0.113.9';
  return { auth, adapter, client, logs, nextResetUrl };
}

const codeOf = async (res: Response) => ((await res.json()) as { error?: { code: string } }).error?.code;

describe('haveIBeenPwned(): what is sent', () => {
  it('sends only the first 5 hex characters of the SHA-1, with Add-Padding: true', async () => {
    const { client } = setup();
    const before = range.requests.length;
    await client.postJson('/auth/signup', { email: 'ada@example.com', password: GOOD });
    const sent = range.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.path).toBe(`/range/${sha1(GOOD).slice(0, 5)}`);
    expect(sent[0]!.headers['add-padding']).toBe('true');
    const everything = JSON.stringify(sent);
    expect(everything).not.toContain(sha1(GOOD).slice(5));
    expect(everything).not.toContain(GOOD);
  });

  it('padding: false asks without the header', async () => {
    const before = range.requests.length;
    await pwnedCount(GOOD, { endpoint: range.endpoint, padding: false });
    expect(range.requests.slice(before)[0]!.headers['add-padding']).toBeUndefined();
  });

  it('pwnedCount reads the count; a padding line (count 0) is not a breach', async () => {
    expect(await pwnedCount(BREACHED, { endpoint: range.endpoint })).toBe(2_000_000);
    expect(await pwnedCount(PADDED, { endpoint: range.endpoint })).toBe(0);
    expect(await pwnedCount(GOOD, { endpoint: range.endpoint })).toBe(0);
  });
});

describe('haveIBeenPwned(): breached passwords refused', () => {
  it('on sign-up: 400 PASSWORD_BREACHED and no account; a clean password signs up', async () => {
    const { client, adapter } = setup();
    const res = await client.postJson('/auth/signup', { email: 'ada@example.com', password: BREACHED });
    expect(res.status).toBe(400);
    expect(await codeOf(res)).toBe('PASSWORD_BREACHED');
    expect(await adapter.getUserByEmail('ada@example.com')).toBeNull();
    const padded = await client.postJson('/auth/signup', { email: 'ada@example.com', password: PADDED });
    expect(padded.status).toBe(200);
  });

  it('on password reset: refused, and the old password still signs in', async () => {
    const { client, nextResetUrl } = setup();
    await client.postJson('/auth/signup', { email: 'ada@example.com', password: GOOD });
    const other = new TestClient(client.auth);
    const mail = nextResetUrl();
    await other.postJson('/auth/password/forgot', { email: 'ada@example.com' });
    const url = new URL(await mail);
    const res = await other.postJson(url.pathname, { token: url.searchParams.get('token')!, password: BREACHED });
    expect(res.status).toBe(400);
    expect(await codeOf(res)).toBe('PASSWORD_BREACHED');
    const signIn = await new TestClient(client.auth).postJson('/auth/callback/credentials', {
      email: 'ada@example.com',
      password: GOOD,
    });
    expect(signIn.status).toBe(200);
  });

  it('on password change: refused; a clean new password is accepted', async () => {
    const { client } = setup();
    await client.postJson('/auth/signup', { email: 'ada@example.com', password: GOOD });
    const refused = await client.postJson('/auth/password/change', { currentPassword: GOOD, newPassword: BREACHED });
    expect(refused.status).toBe(400);
    expect(await codeOf(refused)).toBe('PASSWORD_BREACHED');
    const ok = await client.postJson('/auth/password/change', { currentPassword: GOOD, newPassword: `${GOOD}!` });
    expect(ok.status).toBe(200);
  });

  it('minCount: a password seen fewer times passes', async () => {
    const { client } = setup({ minCount: 3 });
    expect((await client.postJson('/auth/signup', { email: 'a@example.com', password: RARE })).status).toBe(200);
    const res = await client.postJson('/auth/signup', { email: 'b@example.com', password: BREACHED });
    expect(await codeOf(res)).toBe('PASSWORD_BREACHED');
  });
});

describe('haveIBeenPwned(): the range API cannot be reached', () => {
  it("onError 'allow' (default) accepts the password and logs a warning", async () => {
    const down = await fakeRangeServer({});
    await down.close();
    const { client, adapter, logs } = setup({ endpoint: down.endpoint });
    const res = await client.postJson('/auth/signup', { email: 'ada@example.com', password: BREACHED });
    expect(res.status).toBe(200);
    expect(await adapter.getUserByEmail('ada@example.com')).not.toBeNull();
    expect(logs.some((l) => l.startsWith('warn [haveIBeenPwned] range API unavailable'))).toBe(true);
  });

  it("onError 'refuse' answers 503 PASSWORD_CHECK_UNAVAILABLE and creates nothing", async () => {
    const down = await fakeRangeServer({});
    await down.close();
    const { client, adapter, logs } = setup({ endpoint: down.endpoint, onError: 'refuse' });
    const res = await client.postJson('/auth/signup', { email: 'ada@example.com', password: GOOD });
    expect(res.status).toBe(503);
    expect(await codeOf(res)).toBe('PASSWORD_CHECK_UNAVAILABLE');
    expect(await adapter.getUserByEmail('ada@example.com')).toBeNull();
    expect(logs.some((l) => l.startsWith('error [haveIBeenPwned]'))).toBe(true);
  });

  it('an error status from the API follows the same policy', async () => {
    const { client } = setup({ endpoint: `${range.endpoint}not-a-prefix/`, onError: 'refuse' });
    const res = await client.postJson('/auth/signup', { email: 'ada@example.com', password: GOOD });
    expect(await codeOf(res)).toBe('PASSWORD_CHECK_UNAVAILABLE');
  });

  it('refuses bad options with INVALID_CONFIG', () => {
    for (const bad of [{ endpoint: 'nope' }, { minCount: 0 }, { onError: 'maybe' }, { timeout: -1 }])
      expect(() => haveIBeenPwned(bad as HaveIBeenPwnedOptions)).toThrow(
        expect.objectContaining({ code: 'INVALID_CONFIG' }),
      );
  });
});
