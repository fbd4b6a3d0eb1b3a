/**
 * Custom user fields end to end, in process over the memory adapter: the config checks of `createAuth`, sign-up,
 * `POST /account/update`, the session JSON, `getSession()` and `callbacks.session`, and the inferred types.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createAuth, type CreateAuthOptions } from '../auth.js';
import { createMemoryAdapter } from '../storage/memory.js';
import type { StorageAdapter } from '../storage/types.js';
import { ORIGIN, SECRET, TestClient } from '../testing/fixtures.js';
import { setUserFields } from './set-fields.js';
import type { UserFieldsConfig } from './types.js';

const PASSWORD = 'correct horse battery';

const fields = {
  plan: { type: 'string', required: false, defaultValue: 'free', input: false },
  company: { type: 'string', required: true },
  seats: { type: 'number' },
  newsletter: { type: 'boolean', defaultValue: false },
  birthday: { type: 'date' },
  tags: { type: 'string[]' },
  handle: { type: 'string', unique: true },
} as const satisfies UserFieldsConfig;

/** What every engine of this file shares. */
const BASE = { secret: SECRET, baseURL: ORIGIN, providers: [], logger: { error: () => {}, warn: () => {} } };

function setup(adapter: StorageAdapter = createMemoryAdapter()) {
  const auth = createAuth({
    ...BASE,
    adapter,
    emailAndPassword: {},
    // Sign-ups count on the login limiter; these tests sign up many times from one address.
    rateLimit: { login: false },
    user: { additionalFields: fields },
  });
  return { auth, adapter, client: () => new TestClient(auth) };
}

const signUp = (c: TestClient, extra: Record<string, unknown> = {}, email = 'ada@example.com') =>
  c.postJson('/auth/signup', { email, password: PASSWORD, name: 'Ada', company: 'Analytical', ...extra });

async function errorCode(res: Response): Promise<string> {
  return ((await res.json()) as { error: { code: string } }).error.code;
}

describe('createAuth({ user: { additionalFields } })', () => {
  const make =
    (additionalFields: unknown, adapter: StorageAdapter | null = createMemoryAdapter()) =>
    () =>
      createAuth({
        secret: SECRET,
        ...(adapter ? { adapter } : {}),
        providers: [],
        user: { additionalFields: additionalFields as UserFieldsConfig },
      });

  it.each([
    ['a name that is no identifier', { 'plan-tier': { type: 'string' } }, /not a field name/],
    ['a core field', { email: { type: 'string' } }, /field of the user already/],
    ['a core column in another case', { EmailVerified: { type: 'date' } }, /field of the user already/],
    ['a core column in snake case', { sessionVersion: { type: 'number' } }, /field of the user already/],
    ['two names on one column', { planTier: { type: 'string' }, plan_tier: { type: 'string' } }, /share the column/],
    ['an unknown type', { plan: { type: 'text' } }, /type must be one of/],
    ['an unknown option', { plan: { type: 'string', length: 5 } }, /unknown option "length"/],
    ['a default of another type', { seats: { type: 'number', defaultValue: '3' } }, /defaultValue must be a number/],
    ['a unique non-string', { seats: { type: 'number', unique: true } }, /for 'string' fields only/],
    ['a non-boolean flag', { plan: { type: 'string', input: 'no' } }, /input must be a boolean/],
  ])('refuses %s with INVALID_CONFIG', (_, additionalFields, message) => {
    expect(make(additionalFields)).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG', message: expect.stringMatching(message) }),
    );
  });

  it('refuses fields without an adapter, or with one that cannot store them', () => {
    expect(make({ plan: { type: 'string' } }, null)).toThrow(/needs `adapter`/);
    const { configureUserFields: _, ...plain } = createMemoryAdapter();
    expect(make({ plan: { type: 'string' } }, plain as StorageAdapter)).toThrow(/configureUserFields/);
  });

  it('refuses unknown keys of `user`', () => {
    expect(() =>
      createAuth({ secret: SECRET, providers: [], user: { fields: {} } as CreateAuthOptions['user'] }),
    ).toThrow(/unknown option user.fields/);
  });
});

describe('sign-up', () => {
  it('stores the fields given, their types coerced from text, and defaults for the rest', async () => {
    const { adapter, client } = setup();
    const res = await signUp(client(), {
      seats: '3',
      newsletter: 'on',
      birthday: '1815-12-10',
      tags: '["math","poetry"]',
      handle: 'ada',
    });
    expect(res.status).toBe(200);
    const user = (await adapter.getUserByEmail('ada@example.com')) as unknown as Record<string, unknown>;
    expect(user).toMatchObject({
      plan: 'free',
      company: 'Analytical',
      seats: 3,
      newsletter: true,
      birthday: new Date('1815-12-10T00:00:00.000Z'),
      tags: ['math', 'poetry'],
      handle: 'ada',
    });
  });

  it('fills defaults (and null) for fields left out; a form post works as JSON does', async () => {
    const { adapter, client } = setup();
    const c = client();
    const res = await c.postForm('/auth/signup', { email: 'ada@example.com', password: PASSWORD, company: 'A' });
    expect(res.status).toBe(303);
    const user = (await adapter.getUserByEmail('ada@example.com')) as unknown as Record<string, unknown>;
    expect(user).toMatchObject({ plan: 'free', newsletter: false, seats: null, birthday: null, tags: null });
  });

  it('shows an input per client-settable field on the default sign-up page, and none for input: false', async () => {
    const { auth } = setup();
    const page = await (
      await auth.handler(new Request(`${ORIGIN}/auth/signup`, { headers: { accept: 'text/html' } }))
    ).text();
    expect(page).toContain('<label for="signup-field-company">Company</label>');
    expect(page).toMatch(/<input id="signup-field-company" name="company" type="text" maxlength="1000" required>/);
    expect(page).toContain('name="seats" type="number" step="any">');
    expect(page).toContain('name="newsletter" type="checkbox" value="true">');
    expect(page).toContain('name="birthday" type="date">');
    expect(page).not.toContain('name="plan"');
  });

  it('refuses a field with input: false (400 USER_FIELD_NOT_INPUT) and stores nothing', async () => {
    const { adapter, client } = setup();
    const res = await signUp(client(), { plan: 'enterprise' });
    expect(res.status).toBe(400);
    expect(await errorCode(res)).toBe('USER_FIELD_NOT_INPUT');
    expect(await adapter.getUserByEmail('ada@example.com')).toBeNull();
  });

  it('refuses a missing required field (400 USER_FIELD_REQUIRED) and a malformed value (400 USER_FIELD_INVALID)', async () => {
    const { adapter, client } = setup();
    const missing = await client().postJson('/auth/signup', { email: 'ada@example.com', password: PASSWORD });
    expect(missing.status).toBe(400);
    expect(await errorCode(missing)).toBe('USER_FIELD_REQUIRED');
    for (const bad of [{ seats: 'three' }, { newsletter: 'maybe' }, { birthday: '10/12/1815' }, { tags: '["a",1]' }]) {
      const res = await signUp(client(), bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(await errorCode(res)).toBe('USER_FIELD_INVALID');
    }
    const hidden = await signUp(client(), { company: 'Evil\u202ECorp' });
    expect(await errorCode(hidden)).toBe('USER_FIELD_INVALID');
    expect(await adapter.getUserByEmail('ada@example.com')).toBeNull();
  });

  it('answers 409 USER_FIELD_TAKEN for a taken unique value, not EMAIL_TAKEN', async () => {
    const { client } = setup();
    expect((await signUp(client(), { handle: 'ada' })).status).toBe(200);
    const again = await signUp(client(), { handle: 'ada' }, 'grace@example.com');
    expect(again.status).toBe(409);
    expect(await errorCode(again)).toBe('USER_FIELD_TAKEN');
  });
});

describe('the session', () => {
  it('carries the fields in GET /session (dates as ISO strings) and getSession()', async () => {
    const { auth, client } = setup();
    const c = client();
    await signUp(c, { birthday: '1815-12-10', seats: '2' });
    const session = await c.session();
    expect(session?.user).toMatchObject({
      plan: 'free',
      company: 'Analytical',
      seats: 2,
      birthday: '1815-12-10T00:00:00.000Z',
    });
    const state = await auth.getSession(new Request(`${ORIGIN}/`, { headers: { cookie: c.cookieHeader() } }));
    expect(state.user?.plan).toBe('free');
    expect(state.user?.birthday).toEqual(new Date('1815-12-10T00:00:00.000Z'));
  });

  it('hands the fields to callbacks.session, whose additions are typed on getSession()', async () => {
    const adapter = createMemoryAdapter();
    const auth = createAuth({
      ...BASE,
      adapter,
      emailAndPassword: {},
      user: { additionalFields: { plan: { type: 'string', defaultValue: 'free', input: false } } },
      callbacks: {
        session: ({ session, user }) => ({ ...session, user: { ...session.user, paid: user.plan !== 'free' } }),
      },
    });
    const c = new TestClient(auth);
    await c.postJson('/auth/signup', { email: 'ada@example.com', password: PASSWORD });
    const user = (await adapter.getUserByEmail('ada@example.com'))!;
    await adapter.updateUser(user.id, { plan: 'pro' } as never);
    expect((await c.session())?.user).toMatchObject({ plan: 'pro', paid: true });
    const state = await auth.getSession(new Request(`${ORIGIN}/`, { headers: { cookie: c.cookieHeader() } }));
    expect(state.user?.paid).toBe(true);
    expectTypeOf(state.user!.paid).toEqualTypeOf<boolean>();
    expectTypeOf(state.user!.plan).toEqualTypeOf<string>();
  });
});

describe('POST /account/update', () => {
  async function signedUp() {
    const s = setup();
    const c = s.client();
    await signUp(c, { handle: 'ada' });
    const id = (await s.adapter.getUserByEmail('ada@example.com'))!.id;
    return { ...s, c, id };
  }

  it('changes name, image and input fields (coerced), clears with an empty value, and answers the new user', async () => {
    const { c, adapter, id } = await signedUp();
    const res = await c.postJson('/auth/account/update', {
      name: 'Ada Lovelace',
      image: 'https://example.com/ada.png',
      seats: '12',
      newsletter: 'true',
      tags: '',
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { ok: boolean; user: Record<string, unknown> };
    expect(body.user).toMatchObject({ name: 'Ada Lovelace', seats: 12, newsletter: true, tags: null, plan: 'free' });
    expect(await adapter.getUser(id)).toMatchObject({
      name: 'Ada Lovelace',
      image: 'https://example.com/ada.png',
      seats: 12,
    });
    expect((await c.session())?.user).toMatchObject({ seats: 12, newsletter: true });
  });

  it('redirects a form post to callbackUrl', async () => {
    const { c } = await signedUp();
    const res = await c.postForm('/auth/account/update', { seats: '4', callbackUrl: '/settings' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/settings');
  });

  it('refuses input: false, unknown keys, clearing a required field, and bad values, changing nothing', async () => {
    const { c, adapter, id } = await signedUp();
    const before = await adapter.getUser(id);
    const cases: [Record<string, string>, string][] = [
      [{ plan: 'pro' }, 'USER_FIELD_NOT_INPUT'],
      [{ role: 'admin' }, 'USER_FIELD_UNKNOWN'],
      [{ email: 'x@example.com' }, 'USER_FIELD_UNKNOWN'],
      [{ company: '' }, 'USER_FIELD_REQUIRED'],
      [{ seats: 'many', name: 'Changed' }, 'USER_FIELD_INVALID'],
      [{ image: 'javascript:alert(1)' }, 'INVALID_REQUEST'],
      [{}, 'INVALID_REQUEST'],
    ];
    for (const [body, code] of cases) {
      const res = await c.postJson('/auth/account/update', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await errorCode(res)).toBe(code);
    }
    expect(await adapter.getUser(id)).toEqual(before);
  });

  it('answers 409 USER_FIELD_TAKEN for another user’s unique value', async () => {
    const { client } = await signedUp();
    const grace = client();
    await signUp(grace, { handle: 'grace' }, 'grace@example.com');
    const res = await grace.postJson('/auth/account/update', { handle: 'ada' });
    expect(res.status).toBe(409);
    expect(await errorCode(res)).toBe('USER_FIELD_TAKEN');
  });

  it('needs a session (401) and the CSRF token (403)', async () => {
    const { auth, client, c } = await signedUp();
    const anonymous = await client().postJson('/auth/account/update', { seats: '1' });
    expect(anonymous.status).toBe(401);
    const forged = await auth.handler(
      new Request(`${ORIGIN}/auth/account/update`, {
        method: 'POST',
        headers: { cookie: c.cookieHeader(), 'content-type': 'application/json', origin: ORIGIN },
        body: JSON.stringify({ seats: '1' }),
      }),
    );
    expect(forged.status).toBe(403);
    expect(await errorCode(forged)).toBe('CSRF_TOKEN_INVALID');
  });
});

describe('setUserFields (server code)', () => {
  it('sets fields, input: false included, typed by the engine; refuses other keys and wrong types', async () => {
    const { auth, adapter, client } = setup();
    await signUp(client());
    const { id } = (await adapter.getUserByEmail('ada@example.com'))!;
    const updated = await setUserFields(auth, id, { plan: 'pro', seats: null });
    expect(updated).toMatchObject({ plan: 'pro', seats: null, company: 'Analytical' });
    expectTypeOf(updated!.plan).toEqualTypeOf<string>();
    // @ts-expect-error not a custom field
    await expect(setUserFields(auth, id, { email: 'x@example.com' })).rejects.toMatchObject({
      code: 'USER_FIELD_UNKNOWN',
    });
    // @ts-expect-error a string for a number field
    await expect(setUserFields(auth, id, { seats: '3' })).rejects.toThrow(TypeError);
    expect(await setUserFields(auth, 'nobody', { plan: 'pro' })).toBeNull();
    expect(await adapter.getUser(id)).toMatchObject({ plan: 'pro', seats: null });
  });
});

describe('types', () => {
  it('types the fields on getSession(), the scope and callbacks.session', () => {
    const { auth } = setup();
    type U = NonNullable<Awaited<ReturnType<typeof auth.getSession>>['user']>;
    expectTypeOf<U['plan']>().toEqualTypeOf<string>();
    expectTypeOf<U['company']>().toEqualTypeOf<string>();
    expectTypeOf<U['seats']>().toEqualTypeOf<number | null>();
    expectTypeOf<U['newsletter']>().toEqualTypeOf<boolean>();
    expectTypeOf<U['birthday']>().toEqualTypeOf<Date | null>();
    expectTypeOf<U['tags']>().toEqualTypeOf<string[] | null>();
    expectTypeOf<U['email']>().toEqualTypeOf<string | null | undefined>();
    void auth.run(new Request(ORIGIN), (scope) => expectTypeOf(scope.user?.plan).toEqualTypeOf<string | undefined>());
    createAuth({
      secret: SECRET,
      adapter: createMemoryAdapter(),
      providers: [],
      user: { additionalFields: { plan: { type: 'string' } } },
      callbacks: { session: ({ user, session }) => (expectTypeOf(user.plan).toEqualTypeOf<string | null>(), session) },
    });
  });

  it('refuses a default of the wrong type, and keeps the plain user without fields', () => {
    const plain = createAuth({ secret: SECRET, providers: [] });
    expect(plain.adapter).toBeUndefined();
    expectTypeOf<NonNullable<Awaited<ReturnType<typeof plain.getSession>>['user']>>().not.toHaveProperty('plan');
    expect(() =>
      createAuth({
        secret: SECRET,
        adapter: createMemoryAdapter(),
        providers: [],
        // @ts-expect-error a number field with a string default
        user: { additionalFields: { n: { type: 'number', defaultValue: 'x' } } },
      }),
    ).toThrow(/defaultValue/);
  });
});
