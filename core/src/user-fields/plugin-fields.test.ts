/**
 * Plugins' sign-up fields (`AuthPlugin.signUpFields`) through `auth.handler`: the default page shows the input, the
 * check runs before the user is created (a refusal stores nothing and re-shows the page), persist runs once the user
 * exists and is told whether the sign-up signs in, and names that clash are refused at `createAuth`.
 */
import { describe, expect, it } from 'vitest';
import { createAuth, type CreateAuthOptions } from '../auth.js';
import type { AuthPlugin, SignUpField } from '../contract/types.js';
import { defineErrorCodes } from '../errors/define.js';
import { createMemoryAdapter } from '../storage/memory.js';
import { ORIGIN, SECRET, TestClient } from '../testing/fixtures.js';

const PASSWORD = 'correct horse battery';
const ERRORS = defineErrorCodes({
  TEST_NICKNAME_RUDE: { status: 400, message: 'Pick a kinder nickname' },
});

function nicknames(log: string[], field: Partial<SignUpField<string | undefined>> = {}) {
  const stored = new Map<string, string>();
  const plugin: AuthPlugin<'nicknames'> = {
    id: 'nicknames',
    signUpFields: [
      {
        name: 'nickname',
        label: 'Nickname <3',
        autocomplete: 'nickname',
        maxLength: 20,
        required: true,
        check: (_ctx, { value, email }) => {
          log.push(`check ${value ?? '(none)'} ${email}`);
          if (value?.includes('rude')) throw ERRORS.error('TEST_NICKNAME_RUDE');
          return value?.trim();
        },
        persist: async (_ctx, { value, user, signsIn }) => {
          log.push(`persist ${value} ${user.email} ${signsIn}`);
          stored.set(user.id, value);
        },
        ...field,
      },
    ],
  };
  return { plugin, stored };
}

function setup(plugins: AuthPlugin<string>[], overrides: Partial<CreateAuthOptions> = {}) {
  const adapter = createMemoryAdapter();
  const auth = createAuth({
    secret: SECRET,
    baseURL: ORIGIN,
    adapter,
    providers: [],
    emailAndPassword: {},
    plugins,
    logger: { error: () => {}, warn: () => {} },
    ...overrides,
  });
  return { auth, adapter, client: () => new TestClient(auth) };
}

describe('plugin sign-up fields', () => {
  it('the default page shows the input with its label and hints, escaped', async () => {
    const f = setup([nicknames([]).plugin]);
    const page = await (await f.client().request('/auth/signup', { headers: { accept: 'text/html' } })).text();
    expect(page).toContain(
      '<label for="signup-field-nickname">Nickname &lt;3</label><input id="signup-field-nickname" name="nickname" type="text" autocomplete="nickname" autocapitalize="none" spellcheck="false" maxlength="20" required>',
    );
  });

  it('checks before the user is created and persists once it exists (signsIn true when the sign-up signs in)', async () => {
    const log: string[] = [];
    const { plugin, stored } = nicknames(log);
    const f = setup([plugin]);
    const refused = await f
      .client()
      .postJson('/auth/signup', { email: 'ada@example.com', password: PASSWORD, nickname: 'so rude' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('TEST_NICKNAME_RUDE');
    expect(await f.adapter.getUserByEmail('ada@example.com')).toBeNull();
    expect(log).toStrictEqual(['check so rude ada@example.com']);

    log.length = 0;
    const c = f.client();
    const made = await c.postJson('/auth/signup', { email: 'ada@example.com', password: PASSWORD, nickname: ' Ada ' });
    expect(made.status).toBe(200);
    const user = await f.adapter.getUserByEmail('ada@example.com');
    expect(stored.get(user!.id)).toBe('Ada');
    expect(log).toStrictEqual(['check  Ada  ada@example.com', 'persist Ada ada@example.com true']);
    expect((await c.session())?.user.id).toBe(user!.id);

    // Absent (or blank): check sees undefined, and nothing is persisted.
    log.length = 0;
    expect(
      (await f.client().postJson('/auth/signup', { email: 'bob@example.com', password: PASSWORD, nickname: '  ' }))
        .status,
    ).toBe(200);
    expect(log).toStrictEqual(['check (none) bob@example.com']);
  });

  it('persist is told the sign-up does not sign in under email verification, and is skipped when signIn refuses', async () => {
    const log: string[] = [];
    const verified = setup([nicknames(log).plugin], {
      emailAndPassword: { requireEmailVerification: true, sendVerificationEmail: () => {} },
    });
    await verified.client().postJson('/auth/signup', { email: 'ada@example.com', password: PASSWORD, nickname: 'A' });
    expect(log).toStrictEqual(['check A ada@example.com', 'persist A ada@example.com false']);

    log.length = 0;
    const refusing = setup([nicknames(log).plugin], { callbacks: { signIn: () => false } });
    const res = await refusing
      .client()
      .postJson('/auth/signup', { email: 'ada@example.com', password: PASSWORD, nickname: 'A' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(log).toStrictEqual(['check A ada@example.com']);
    expect(await refusing.adapter.getUserByEmail('ada@example.com')).toBeNull();
  });

  it("a refused form shows the page again with the check's message and what was typed, not the password", async () => {
    const f = setup([nicknames([]).plugin]);
    const res = await f.client().postForm('/auth/signup', {
      name: 'Ada "L"',
      email: 'ada@example.com',
      password: 'my secret passphrase',
      nickname: 'rude one',
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('role="alert">Pick a kinder nickname');
    expect(html).toContain('name="nickname" type="text"');
    expect(html).toContain('value="rude one"');
    expect(html).toContain('value="Ada &quot;L&quot;"');
    expect(html).toContain('value="ada@example.com"');
    expect(html).not.toContain('my secret passphrase');
  });

  it('refuses at createAuth a field named like what sign-up reads, a custom user field, or another plugin field', () => {
    const named = (name: string): AuthPlugin<string> => ({
      id: `p-${name}`,
      signUpFields: [{ name, label: 'X', check: () => undefined }],
    });
    for (const name of ['email', 'Password', 'callbackUrl', 'role', 'nickname', '1st', 'a-b'])
      expect(() => setup(name === 'nickname' ? [nicknames([]).plugin, named(name)] : [named(name)])).toThrowError(
        expect.objectContaining({ code: 'INVALID_CONFIG' }),
      );
    expect(() => setup([named('plan')], { user: { additionalFields: { plan: { type: 'string' } } } })).toThrowError(
      /sign-up field "plan" is declared twice/,
    );
    expect(() => setup([{ id: 'x', signUpFields: [{ name: 'ok', label: '', check: () => undefined }] }])).toThrowError(
      /needs a label/,
    );
    expect(() => setup([named('fine')])).not.toThrow();
  });
});
