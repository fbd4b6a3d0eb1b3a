/**
 * Each preset, pointed at a real local OIDC provider (oauth2-mock-server)
 * through its endpoint overrides, goes through the whole flow. The provider's
 * userinfo answers are shaped like each real provider's documented responses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportPKCS8, generateKeyPair, decodeJwt, decodeProtectedHeader } from 'jose';
import type { OAuth2Server } from 'oauth2-mock-server';
import { Browser, makeAuth, patchNextIdToken, startProvider } from './oauth-harness.js';
import { codehost } from './presets/codehost.js';
import { search } from './presets/search.js';
import { chat } from './presets/chat.js';
import { device } from './presets/device.js';
import { gitlab } from './presets/gitlab.js';

let provider: Awaited<ReturnType<typeof startProvider>>;
let server: OAuth2Server;
beforeAll(async () => {
  provider = await startProvider();
  server = provider.server;
});
afterAll(() => provider.stop());

type UserinfoHook = (
  res: { body: unknown; statusCode: number },
  req: { url: string; headers: Record<string, string> },
) => void;
function onUserinfo(hook: UserinfoHook): () => void {
  server.service.on('beforeUserinfo', hook);
  return () => server.service.off('beforeUserinfo', hook);
}
const errorOf = (res: Response) => new URL(res.headers.get('location')!, 'http://x').searchParams.get('error');

describe('codehost (GitHub-style)', () => {
  const preset = () =>
    codehost({
      clientId: 'ghclient',
      clientSecret: 'ghsecret',
      endpoints: {
        authorization: `${provider.issuer}/authorize`,
        token: `${provider.issuer}/token`,
        userinfo: `${provider.issuer}/userinfo`,
        emails: `${provider.issuer}/userinfo?emails=1`,
      },
    });

  it('signs in with the primary verified email from the emails API when the profile email is private', async () => {
    const userAgents: string[] = [];
    const off = onUserinfo((res, req) => {
      userAgents.push(req.headers['user-agent'] ?? '');
      res.body = req.url.includes('emails=1')
        ? [
            { email: 'old@example.com', primary: false, verified: true, visibility: null },
            { email: 'octo@example.com', primary: true, verified: true, visibility: 'private' },
          ]
        : {
            login: 'octocat',
            id: 583231,
            avatar_url: 'https://avatars.githubusercontent.com/u/583231?v=4',
            name: 'The Octocat',
            email: null,
          };
    });
    try {
      const { auth, adapter } = makeAuth({ providers: [preset()] });
      const b = new Browser(auth);
      const start = await b.start('codehost');
      expect(start.searchParams.get('scope')).toBe('read:user user:email');
      expect(start.searchParams.has('nonce')).toBe(false);
      const res = await b.app((await b.authorize(start)).href);
      expect(res.headers.get('location')).toBe('/home');
      expect((await b.session())?.user).toMatchObject({
        email: 'octo@example.com',
        name: 'The Octocat',
        image: 'https://avatars.githubusercontent.com/u/583231?v=4',
      });
      expect(await adapter.getAccount({ provider: 'codehost', providerAccountId: '583231' })).toMatchObject({
        type: 'oauth',
      });
      expect(userAgents.length).toBe(2);
      expect(userAgents.every((ua) => ua.length > 0)).toBe(true);
    } finally {
      off();
    }
  });

  it('handles token errors sent with HTTP 200 as a clear callback error', async () => {
    const { auth } = makeAuth({ providers: [preset()] });
    const b = new Browser(auth);
    const back = await b.authorize(await b.start('codehost'));
    server.service.once('beforeResponse', (res: { statusCode: number; body: unknown }) => {
      res.statusCode = 200;
      res.body = {
        error: 'bad_verification_code',
        error_description: 'The code passed is incorrect or expired.',
        error_uri: 'https://docs.github.com/',
      };
    });
    const res = await b.app(back.href);
    expect(res.status).toBe(303);
    expect(errorOf(res)).toBe('OAuthCallbackError');
  });
});

describe('search (Google-style OIDC)', () => {
  it('discovers the issuer and maps the ID token claims', async () => {
    const { auth } = makeAuth({
      providers: [search({ clientId: 'gclient', clientSecret: 'gsecret', issuer: provider.issuer })],
    });
    const b = new Browser(auth);
    const start = await b.start('search');
    expect(start.searchParams.get('scope')).toBe('openid email profile');
    expect(start.searchParams.get('nonce')).toBeTruthy();
    patchNextIdToken(server, {
      sub: '110169484474386276334',
      email: 'larry@example.com',
      email_verified: true,
      name: 'Larry P',
      picture: 'https://lh3.googleusercontent.com/a/photo.jpg',
    });
    await b.app((await b.authorize(start)).href);
    expect((await b.session())?.user).toMatchObject({
      email: 'larry@example.com',
      name: 'Larry P',
      image: 'https://lh3.googleusercontent.com/a/photo.jpg',
    });
  });
});

describe('chat (Discord-style)', () => {
  it('maps the profile and builds the avatar from the CDN', async () => {
    const off = onUserinfo((res) => {
      res.body = {
        id: '80351110224678912',
        username: 'nelly',
        discriminator: '0',
        global_name: 'Nelly',
        avatar: 'a_8342729096ea3675442027381ff50dfe',
        verified: true,
        email: 'nelly@example.com',
      };
    });
    try {
      const { auth } = makeAuth({
        providers: [
          chat({
            clientId: 'dclient',
            clientSecret: 'dsecret',
            endpoints: {
              authorization: `${provider.issuer}/authorize`,
              token: `${provider.issuer}/token`,
              userinfo: `${provider.issuer}/userinfo`,
            },
          }),
        ],
      });
      const b = new Browser(auth);
      const start = await b.start('chat');
      expect(start.searchParams.get('scope')).toBe('identify email');
      await b.app((await b.authorize(start)).href);
      expect((await b.session())?.user).toMatchObject({
        email: 'nelly@example.com',
        name: 'Nelly',
        image: 'https://cdn.discordapp.com/avatars/80351110224678912/a_8342729096ea3675442027381ff50dfe.gif',
      });
    } finally {
      off();
    }
  });
});

describe('device (Apple-style)', () => {
  it('uses form_post, a cached ES256 client secret, and takes the name from the first sign-in only', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const pem = await exportPKCS8(privateKey);
    const secrets: string[] = [];
    const record = (_res: unknown, req: { body: Record<string, string> }) => {
      if (req.body.client_secret) secrets.push(req.body.client_secret);
    };
    server.service.on('beforeResponse', record);
    try {
      const { auth } = makeAuth({
        providers: [
          device({
            clientId: 'com.example.web',
            teamId: 'TEAM123456',
            keyId: 'KEY1234567',
            privateKey: pem,
            issuer: provider.issuer,
          }),
        ],
      });
      const first = new Browser(auth);
      const start = await first.start('device');
      expect(start.searchParams.get('response_mode')).toBe('form_post');
      expect(start.searchParams.get('scope')).toBe('name email');
      const back = await first.authorize(start);
      patchNextIdToken(server, {
        sub: '001234.abcd',
        email: 'private@privaterelay.appleid.com',
        email_verified: 'true',
      });
      // Apple POSTs the response from its own origin: no CSRF token, a cross-site Origin.
      const res = await first.app('/auth/callback/device', {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: 'https://appleid.apple.com',
          'sec-fetch-site': 'cross-site',
        },
        body: new URLSearchParams({
          code: back.searchParams.get('code')!,
          state: back.searchParams.get('state')!,
          user: JSON.stringify({
            name: { firstName: 'Jane', lastName: 'Appleseed' },
            email: 'private@privaterelay.appleid.com',
          }),
        }).toString(),
      });
      expect(res.headers.get('location')).toBe('/home');
      expect((await first.session())?.user).toMatchObject({
        name: 'Jane Appleseed',
        email: 'private@privaterelay.appleid.com',
      });

      // Second sign-in: no `user` field; the stored name stays.
      const second = new Browser(auth);
      const back2 = await second.authorize(await second.start('device'));
      patchNextIdToken(server, { sub: '001234.abcd', email: 'private@privaterelay.appleid.com' });
      await second.app('/auth/callback/device', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          code: back2.searchParams.get('code')!,
          state: back2.searchParams.get('state')!,
        }).toString(),
      });
      expect((await second.session())?.user.name).toBe('Jane Appleseed');

      expect(secrets).toHaveLength(2);
      expect(secrets[0]).toBe(secrets[1]);
      expect(decodeProtectedHeader(secrets[0]!)).toMatchObject({ alg: 'ES256', kid: 'KEY1234567' });
      expect(decodeJwt(secrets[0]!)).toMatchObject({ iss: 'TEAM123456', sub: 'com.example.web', aud: provider.issuer });
    } finally {
      server.service.off('beforeResponse', record);
    }
  });
});

describe('a preset built with definePreset (gitlab) through the whole flow', () => {
  it('signs in under its real name with the GitLab-shaped profile', async () => {
    const off = onUserinfo((res) => {
      res.body = {
        id: 1,
        username: 'john_smith',
        name: 'John Smith',
        email: 'john@example.com',
        avatar_url: 'https://gitlab.example/uploads/-/system/user/avatar/1/avatar.png',
        state: 'active',
      };
    });
    try {
      const { auth, adapter } = makeAuth({
        providers: [
          gitlab({
            clientId: 'glclient',
            clientSecret: 'glsecret',
            endpoints: {
              authorization: `${provider.issuer}/authorize`,
              token: `${provider.issuer}/token`,
              userinfo: `${provider.issuer}/userinfo`,
            },
          }),
        ],
      });
      const b = new Browser(auth);
      const start = await b.start('gitlab');
      expect(start.searchParams.get('scope')).toBe('read_user');
      expect((await b.app((await b.authorize(start)).href)).headers.get('location')).toBe('/home');
      expect((await b.session())?.user).toMatchObject({ email: 'john@example.com', name: 'John Smith' });
      expect(await adapter.getAccount({ provider: 'gitlab', providerAccountId: '1' })).toMatchObject({ type: 'oauth' });
    } finally {
      off();
    }
  });
});
