/**
 * Preset profile mappings against recorded response bodies shaped like each
 * provider's documented responses.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { codehostProfile, primaryVerifiedEmail, codehost } from './presets/codehost.js';
import { chatAvatarUrl, chatProfile } from './presets/chat.js';
import { deviceProfile } from './presets/device.js';
import { searchProfile } from './presets/search.js';
import { createOAuth2Provider } from './create.js';
import { createAuth } from '../../auth.js';
import { createMemoryAdapter } from '../../storage/memory.js';

describe('codehost mapping (GitHub REST: GET /user, GET /user/emails)', () => {
  const user = {
    login: 'octocat',
    id: 1,
    avatar_url: 'https://github.com/images/error/octocat_happy.gif',
    name: null,
    email: 'octocat@github.com',
  };
  it('uses the public email and falls back to the login for the name', () => {
    expect(codehostProfile(user)).toMatchObject({
      id: '1',
      name: 'octocat',
      email: 'octocat@github.com',
      emailVerified: null,
    });
  });
  it('prefers the primary verified address and marks it verified', () => {
    const emails = [
      { email: 'unverified@example.com', verified: false, primary: true, visibility: 'public' },
      { email: 'octocat@github.com', verified: true, primary: false, visibility: null },
    ];
    expect(primaryVerifiedEmail(emails)).toBeNull();
    const p = codehostProfile({
      ...user,
      email: null,
      verified_email: primaryVerifiedEmail([{ email: 'x@y.z', primary: true, verified: true }]),
    });
    expect(p.email).toBe('x@y.z');
    expect(p.emailVerified).toBeInstanceOf(Date);
  });
  it('never throws on hostile email lists', () => {
    fc.assert(
      fc.property(fc.anything(), (v) => {
        const r = primaryVerifiedEmail(v);
        expect(r === null || typeof r === 'string').toBe(true);
      }),
    );
  });
});

describe('chat mapping (Discord: GET /users/@me, image formatting)', () => {
  it('builds custom, animated and default avatar URLs', () => {
    expect(chatAvatarUrl({ id: '80351110224678912', avatar: '8342729096ea3675442027381ff50dfe' })).toBe(
      'https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png',
    );
    expect(chatAvatarUrl({ id: '80351110224678912', avatar: 'a_1269e74af4df7417b13759eae50c83dc' })).toMatch(/\.gif$/);
    // New usernames: (id >> 22) % 6.
    expect(chatAvatarUrl({ id: '80351110224678912', avatar: null, discriminator: '0' })).toBe(
      `https://cdn.discordapp.com/embed/avatars/${Number((80351110224678912n >> 22n) % 6n)}.png`,
    );
    // Legacy discriminators: discriminator % 5.
    expect(chatAvatarUrl({ id: '1', avatar: null, discriminator: '1337' })).toBe(
      'https://cdn.discordapp.com/embed/avatars/2.png',
    );
  });
  it('uses global_name, then username; verified email only', () => {
    expect(
      chatProfile({ id: '1', username: 'nelly', global_name: null, email: 'n@e.x', verified: false }),
    ).toMatchObject({ name: 'nelly', emailVerified: null });
  });
});

describe('device mapping (Apple: ID token + one-time user field)', () => {
  it('takes the name from the first sign-in `user` field only, and string email_verified', () => {
    const claims = {
      sub: '001234.abcd',
      email: 'a@privaterelay.appleid.com',
      email_verified: 'true',
      is_private_email: 'true',
    };
    const first = deviceProfile(claims, {
      callbackParams: new URLSearchParams({ user: '{"name":{"firstName":"Jane","lastName":"Appleseed"}}' }),
    });
    expect(first).toMatchObject({ id: '001234.abcd', name: 'Jane Appleseed', email: 'a@privaterelay.appleid.com' });
    expect(first.emailVerified).toBeInstanceOf(Date);
    expect(deviceProfile(claims, { callbackParams: new URLSearchParams() }).name).toBeNull();
    expect(deviceProfile(claims, { callbackParams: new URLSearchParams({ user: 'not json' }) }).name).toBeNull();
  });
});

describe('search mapping (Google ID token claims)', () => {
  it('maps sub, email, email_verified, name and picture', () => {
    expect(
      searchProfile({ sub: '1', email: 'l@e.x', email_verified: false, name: 'L', picture: 'https://p' }),
    ).toMatchObject({ id: '1', emailVerified: null, image: 'https://p' });
  });
});

describe('provider configuration checks', () => {
  const base = { id: 'acme', name: 'Acme', clientId: 'id', clientSecret: 'secret', profile: () => ({ id: '1' }) };
  it('rejects missing endpoints, bad URLs and duplicate ids', () => {
    expect(() => createOAuth2Provider({ ...base, authorization: 'https://a.test/auth' })).toThrow(
      /the token endpoint is required/,
    );
    expect(() =>
      createOAuth2Provider({ ...base, authorization: 'nope', token: 'https://a.test/t', userinfo: 'https://a.test/u' }),
    ).toThrow(/authorization must be an http\(s\) URL/);
    expect(() =>
      createOAuth2Provider({
        ...base,
        clientId: '',
        authorization: 'https://a/x',
        token: 'https://a/t',
        userinfo: 'https://a/u',
      }),
    ).toThrow(/clientId/);
    const p = createOAuth2Provider({
      ...base,
      authorization: 'https://a.test/auth',
      token: 'https://a.test/t',
      userinfo: 'https://a.test/u',
    });
    expect(() => createAuth({ adapter: createMemoryAdapter(), providers: [p, p] })).toThrow(
      /duplicate provider id "acme"/,
    );
    expect(() =>
      createAuth({ secret: 'x'.repeat(32), providers: [codehost({ clientId: 'a', clientSecret: 'b' })] }),
    ).toThrow(/OAuth providers need `adapter`/);
  });
});
