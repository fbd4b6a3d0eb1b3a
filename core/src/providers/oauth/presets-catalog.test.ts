/**
 * Every preset: https endpoints or issuer, its default id (overridable),
 * scope and client authentication, and its profile mapping against a sample
 * shaped like the provider's documented response.
 */
import { describe, expect, it } from 'vitest';
import * as oauth from './index.js';
import type { OAuthProvider, ProfileContext, TokenSet } from './types.js';
import type { Profile } from '../../types.js';
import { AuthConfigError } from '../../errors.js';
import { cognitoIssuer } from './presets/cognito.js';
import { bitbucketPrimaryEmail } from './presets/bitbucket.js';

const creds = { clientId: 'client-id', clientSecret: 'client-secret' };
const tokens: TokenSet = { access_token: 'at-123' };
const ctx: ProfileContext = { callbackParams: new URLSearchParams(), fetch };
/** Apple's client secret is only signed at the token request, which these tests never make. */
const APPLE_KEY = 'unused-in-these-tests';

interface Case {
  make: (o: Record<string, unknown>) => OAuthProvider;
  /** Options the preset needs beyond the client credentials. */
  extra?: Record<string, unknown>;
  id: string;
  type: 'oauth' | 'oidc';
  scope: string;
  /** A sample profile as the provider documents it, and what it maps to. */
  sample?: Profile;
  expected?: Record<string, unknown>;
  verified?: boolean;
}

const standard = {
  sub: 'u-1',
  email: 'ada@example.com',
  email_verified: true,
  name: 'Ada Lovelace',
  picture: 'https://img.example/ada.png',
};
const standardOut = { id: 'u-1', email: 'ada@example.com', name: 'Ada Lovelace', image: 'https://img.example/ada.png' };

const CASES: Record<string, Case> = {
  github: { make: oauth.github as never, id: 'github', type: 'oauth', scope: 'read:user user:email' },
  codehost: { make: oauth.codehost as never, id: 'codehost', type: 'oauth', scope: 'read:user user:email' },
  google: {
    make: oauth.google as never,
    id: 'google',
    type: 'oidc',
    scope: 'openid email profile',
    sample: standard,
    expected: standardOut,
    verified: true,
  },
  search: { make: oauth.search as never, id: 'search', type: 'oidc', scope: 'openid email profile' },
  discord: { make: oauth.discord as never, id: 'discord', type: 'oauth', scope: 'identify email' },
  chat: { make: oauth.chat as never, id: 'chat', type: 'oauth', scope: 'identify email' },
  apple: {
    make: oauth.apple as never,
    extra: { teamId: 'TEAM123456', keyId: 'KEY1234567', privateKey: APPLE_KEY },
    id: 'apple',
    type: 'oidc',
    scope: 'name email',
  },
  device: {
    make: oauth.device as never,
    extra: { teamId: 'TEAM123456', keyId: 'KEY1234567', privateKey: APPLE_KEY },
    id: 'device',
    type: 'oidc',
    scope: 'name email',
  },
  gitlab: {
    make: oauth.gitlab as never,
    id: 'gitlab',
    type: 'oauth',
    scope: 'read_user',
    sample: {
      id: 1,
      username: 'john_smith',
      name: 'John Smith',
      email: 'john@example.com',
      avatar_url: 'http://localhost:3000/uploads/user/avatar/1/index.jpg',
      state: 'active',
    },
    expected: { id: '1', name: 'John Smith', email: 'john@example.com' },
    verified: false,
  },
  microsoftEntraId: {
    make: oauth.microsoftEntraId as never,
    extra: { tenantId: '9188040d-6c67-4c5b-b112-36a304b66dad' },
    id: 'microsoft-entra-id',
    type: 'oidc',
    scope: 'openid profile email',
    sample: {
      sub: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
      name: 'Megan Bowen',
      email: 'megan@contoso.com',
      email_verified: true,
      oid: '00000000-0000-0000-66f3-3332eca7ea81',
    },
    expected: {
      id: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
      name: 'Megan Bowen',
      email: 'megan@contoso.com',
      image: null,
    },
    verified: false,
  },
  facebook: {
    make: oauth.facebook as never,
    id: 'facebook',
    type: 'oauth',
    scope: 'email public_profile',
    sample: {
      id: '10158000000000000',
      name: 'Jane Doe',
      email: 'jane@example.com',
      picture: {
        data: { height: 50, is_silhouette: false, url: 'https://platform-lookaside.fbsbx.com/p.jpg', width: 50 },
      },
    },
    expected: {
      id: '10158000000000000',
      name: 'Jane Doe',
      email: 'jane@example.com',
      image: 'https://platform-lookaside.fbsbx.com/p.jpg',
    },
    verified: false,
  },
  twitter: {
    make: oauth.twitter as never,
    id: 'twitter',
    type: 'oauth',
    scope: 'users.read tweet.read offline.access',
    sample: {
      data: {
        id: '2244994945',
        name: 'X Dev',
        username: 'XDevelopers',
        profile_image_url: 'https://pbs.twimg.com/profile_images/1/x_normal.jpg',
      },
    },
    expected: {
      id: '2244994945',
      name: 'X Dev',
      email: null,
      image: 'https://pbs.twimg.com/profile_images/1/x_normal.jpg',
    },
    verified: false,
  },
  linkedin: {
    make: oauth.linkedin as never,
    id: 'linkedin',
    type: 'oidc',
    scope: 'openid profile email',
    sample: {
      sub: '782bbtaQ',
      name: 'John Doe',
      given_name: 'John',
      family_name: 'Doe',
      picture: 'https://media.licdn-ei.com/dms/image/C5F03AQHqK8v7tB1HCQ/profile-displayphoto-shrink_100_100/0/',
      locale: 'en-US',
      email: 'doe@email.com',
      email_verified: true,
    },
    expected: { id: '782bbtaQ', name: 'John Doe', email: 'doe@email.com' },
    verified: true,
  },
  slack: {
    make: oauth.slack as never,
    id: 'slack',
    type: 'oidc',
    scope: 'openid profile email',
    sample: {
      ok: true,
      sub: 'U0R7JM',
      'https://slack.com/user_id': 'U0R7JM',
      'https://slack.com/team_id': 'T0R7GR',
      email: 'krane@slack-corp.com',
      email_verified: true,
      name: 'krane',
      picture: 'https://secure.gravatar.com/avatar/x.jpg',
    },
    expected: {
      id: 'U0R7JM',
      name: 'krane',
      email: 'krane@slack-corp.com',
      image: 'https://secure.gravatar.com/avatar/x.jpg',
    },
    verified: true,
  },
  twitch: {
    make: oauth.twitch as never,
    id: 'twitch',
    type: 'oidc',
    scope: 'openid user:read:email',
    sample: {
      aud: 'hof5gwx0su6owfnys0yan9c87zr6t',
      exp: 1642711555,
      iat: 1642710655,
      iss: 'https://id.twitch.tv/oauth2',
      sub: '713936733',
      email: 'scotwht@justin.tv',
      email_verified: true,
      picture: 'https://static-cdn.jtvnw.net/user-default-pictures-uv/x-profile_image-150x150.png',
      preferred_username: 'scotwht',
    },
    expected: { id: '713936733', name: 'scotwht', email: 'scotwht@justin.tv' },
    verified: true,
  },
  spotify: {
    make: oauth.spotify as never,
    id: 'spotify',
    type: 'oauth',
    scope: 'user-read-email',
    sample: {
      id: 'wizzler',
      display_name: 'JM Wizzler',
      email: 'email@example.com',
      images: [{ url: 'https://i.scdn.co/image/ab67616d00001e02ff9ca10b55ce82ae553c8228', height: 300, width: 300 }],
      type: 'user',
      uri: 'spotify:user:wizzler',
    },
    expected: {
      id: 'wizzler',
      name: 'JM Wizzler',
      email: 'email@example.com',
      image: 'https://i.scdn.co/image/ab67616d00001e02ff9ca10b55ce82ae553c8228',
    },
    verified: false,
  },
  reddit: {
    make: oauth.reddit as never,
    id: 'reddit',
    type: 'oauth',
    scope: 'identity',
    sample: {
      id: 'abc12',
      name: 'spez',
      icon_img: 'https://styles.redditmedia.com/t5_1/styles/profileIcon_x.png?width=256&amp;height=256&amp;s=1',
      verified: true,
    },
    expected: {
      id: 'abc12',
      name: 'spez',
      email: null,
      image: 'https://styles.redditmedia.com/t5_1/styles/profileIcon_x.png?width=256&height=256&s=1',
    },
    verified: false,
  },
  notion: {
    make: oauth.notion as never,
    id: 'notion',
    type: 'oauth',
    scope: '',
    sample: {
      object: 'user',
      id: '16d84278-ab0e-484c-9bdd-b35da3bd8905',
      type: 'bot',
      bot: {
        owner: {
          type: 'user',
          user: {
            object: 'user',
            id: 'e79a0b74-3aba-4149-9f74-0bb5791a6ee6',
            name: 'Avocado Lovelace',
            avatar_url: 'https://secure.notion-static.com/e6a352a8.jpg',
            type: 'person',
            person: { email: 'avo@example.org' },
          },
        },
      },
    },
    expected: {
      id: 'e79a0b74-3aba-4149-9f74-0bb5791a6ee6',
      name: 'Avocado Lovelace',
      email: 'avo@example.org',
      image: 'https://secure.notion-static.com/e6a352a8.jpg',
    },
    verified: false,
  },
  dropbox: {
    make: oauth.dropbox as never,
    id: 'dropbox',
    type: 'oauth',
    scope: 'account_info.read',
    sample: {
      account_id: 'dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc',
      name: {
        given_name: 'Franz',
        surname: 'Ferdinand',
        familiar_name: 'Franz',
        display_name: 'Franz Ferdinand (Personal)',
      },
      email: 'franz@dropbox.com',
      email_verified: true,
      profile_photo_url:
        'https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA?vers=1556069330102&size=128x128',
    },
    expected: {
      id: 'dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc',
      name: 'Franz Ferdinand (Personal)',
      email: 'franz@dropbox.com',
    },
    verified: true,
  },
  zoom: {
    make: oauth.zoom as never,
    id: 'zoom',
    type: 'oauth',
    scope: '',
    sample: {
      id: 'KDcuGIm1QgePTO8WbOqwIQ',
      first_name: 'Jill',
      last_name: 'Chill',
      display_name: 'Jill Chill',
      email: 'jchill@example.com',
      type: 1,
      pic_url: 'https://example.com/photo.jpg',
      verified: 1,
    },
    expected: {
      id: 'KDcuGIm1QgePTO8WbOqwIQ',
      name: 'Jill Chill',
      email: 'jchill@example.com',
      image: 'https://example.com/photo.jpg',
    },
    verified: false,
  },
  atlassian: {
    make: oauth.atlassian as never,
    id: 'atlassian',
    type: 'oauth',
    scope: 'read:me',
    sample: {
      account_type: 'atlassian',
      account_id: '112233aa-bb11-cc22-33dd-444444abcd',
      email: 'mia@example.com',
      email_verified: true,
      name: 'Mia Krystof',
      picture: 'https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/112233aa.png',
      account_status: 'active',
      nickname: 'mkrystof',
    },
    expected: { id: '112233aa-bb11-cc22-33dd-444444abcd', name: 'Mia Krystof', email: 'mia@example.com' },
    verified: true,
  },
  bitbucket: {
    make: oauth.bitbucket as never,
    id: 'bitbucket',
    type: 'oauth',
    scope: 'account email',
    sample: {
      uuid: '{a0f3b1c2-0000-4000-8000-000000000000}',
      display_name: 'Tutorials Account',
      nickname: 'tutorials',
      links: { avatar: { href: 'https://secure.gravatar.com/avatar/t.png' } },
      confirmed_email: 'tutorials@example.com',
    },
    expected: {
      id: '{a0f3b1c2-0000-4000-8000-000000000000}',
      name: 'Tutorials Account',
      email: 'tutorials@example.com',
      image: 'https://secure.gravatar.com/avatar/t.png',
    },
    verified: true,
  },
  okta: {
    make: oauth.okta as never,
    extra: { issuer: 'https://dev-123456.okta.com/oauth2/default' },
    id: 'okta',
    type: 'oidc',
    scope: 'openid email profile',
    sample: standard,
    expected: standardOut,
    verified: true,
  },
  auth0: {
    make: oauth.auth0 as never,
    extra: { domain: 'example.us.auth0.com' },
    id: 'auth0',
    type: 'oidc',
    scope: 'openid email profile',
    sample: {
      sub: 'auth0|6500a1b2c3',
      nickname: 'ada',
      email: 'ada@example.com',
      email_verified: false,
      picture: 'https://s.gravatar.com/avatar/a.png',
    },
    expected: { id: 'auth0|6500a1b2c3', name: 'ada', email: 'ada@example.com' },
    verified: false,
  },
  keycloak: {
    make: oauth.keycloak as never,
    extra: { issuer: 'https://sso.example.com/realms/main' },
    id: 'keycloak',
    type: 'oidc',
    scope: 'openid email profile',
    sample: { sub: 'f:0b1c:ada', preferred_username: 'ada', email: 'ada@example.com', email_verified: true },
    expected: { id: 'f:0b1c:ada', name: 'ada', email: 'ada@example.com', image: null },
    verified: true,
  },
  cognito: {
    make: oauth.cognito as never,
    extra: { userPoolId: 'us-east-1_AbCdEfGhI' },
    id: 'cognito',
    type: 'oidc',
    scope: 'openid email profile',
    // Cognito's UserInfo sends email_verified as a string.
    sample: {
      sub: 'a1b2c3d4-0000-0000-0000-000000000000',
      email_verified: 'true',
      email: 'ada@example.com',
      username: 'ada',
    },
    expected: { id: 'a1b2c3d4-0000-0000-0000-000000000000', email: 'ada@example.com' },
    verified: true,
  },
  salesforce: {
    make: oauth.salesforce as never,
    id: 'salesforce',
    type: 'oidc',
    scope: 'openid email profile',
    sample: {
      sub: 'https://login.salesforce.com/id/00Dx0000000BV7z/005x00000012Q9P',
      user_id: '005x00000012Q9P',
      organization_id: '00Dx0000000BV7z',
      name: 'Admin User',
      email: 'admin@example.com',
      email_verified: true,
      picture: 'https://c.salesforce.com/profilephoto/005/F',
    },
    expected: {
      id: 'https://login.salesforce.com/id/00Dx0000000BV7z/005x00000012Q9P',
      name: 'Admin User',
      email: 'admin@example.com',
    },
    verified: true,
  },
  yandex: {
    make: oauth.yandex as never,
    id: 'yandex',
    type: 'oauth',
    scope: 'login:info login:email login:avatar',
    sample: {
      login: 'ivan',
      id: '1000034426',
      client_id: '4760187d81bc4b7799476b42b5103713',
      display_name: 'Ivan',
      real_name: 'Ivan Ivanov',
      default_email: 'test@yandex.ru',
      emails: ['test@yandex.ru', 'other-test@yandex.ru'],
      default_avatar_id: '131652443',
      is_avatar_empty: false,
    },
    expected: {
      id: '1000034426',
      name: 'Ivan',
      email: 'test@yandex.ru',
      image: 'https://avatars.yandex.net/get-yapic/131652443/islands-200',
    },
    verified: false,
  },
  kakao: {
    make: oauth.kakao as never,
    id: 'kakao',
    type: 'oauth',
    scope: 'profile_nickname profile_image account_email',
    sample: {
      id: 123456789,
      connected_at: '2022-04-11T01:45:28Z',
      kakao_account: {
        profile: {
          nickname: '홍길동',
          profile_image_url: 'http://yyy.kakao.com/dn/.../img_640x640.jpg',
          is_default_image: false,
        },
        email: 'sample@sample.com',
        is_email_valid: true,
        is_email_verified: true,
      },
    },
    expected: { id: '123456789', name: '홍길동', email: 'sample@sample.com' },
    verified: true,
  },
  line: {
    make: oauth.line as never,
    id: 'line',
    type: 'oidc',
    scope: 'openid profile email',
    sample: {
      iss: 'https://access.line.me',
      sub: 'U1234567890abcdef1234567890abcdef',
      aud: '1234567890',
      name: 'Taro Line',
      picture: 'https://profile.line-scdn.net/0h.png',
      email: 'taro.line@example.com',
    },
    expected: { id: 'U1234567890abcdef1234567890abcdef', name: 'Taro Line', email: 'taro.line@example.com' },
    verified: false,
  },
};

describe.each(Object.entries(CASES))('preset %s', (_name, c) => {
  const make = (more: Record<string, unknown> = {}) => c.make({ ...creds, ...(c.extra ?? {}), ...more });

  it('has its default id, type and scope, and https endpoints only', () => {
    const p = make();
    expect(p.id).toBe(c.id);
    expect(p.type).toBe(c.type);
    expect(p.scope).toBe(c.scope);
    const urls = [p.issuer, ...Object.values(p.endpoints)].filter((u): u is string => typeof u === 'string');
    expect(urls.length).toBeGreaterThan(0);
    for (const u of urls) expect(new URL(u).protocol).toBe('https:');
    if (c.type === 'oidc') expect(p.issuer).toBeTruthy();
    else
      expect(p.endpoints).toMatchObject({
        authorization: expect.any(String),
        token: expect.any(String),
        userinfo: expect.any(String),
      });
  });

  it('takes another id and name', () => {
    const p = make({ id: 'custom-id', name: 'Custom' });
    expect(p.id).toBe('custom-id');
    if (!['github', 'codehost', 'google', 'search', 'discord', 'chat', 'apple', 'device'].includes(_name))
      expect(p.name).toBe('Custom');
  });

  if (c.sample) {
    const sample = c.sample;
    it('maps a documented sample profile', async () => {
      const mapped = await make().profile(sample, tokens, ctx);
      expect(mapped).toMatchObject(c.expected!);
      expect(mapped.emailVerified instanceof Date).toBe(c.verified);
    });
  }
});

describe('preset options', () => {
  it('presets that need a tenant, domain, pool or issuer say so', () => {
    for (const make of [oauth.microsoftEntraId, oauth.okta, oauth.auth0, oauth.keycloak, oauth.cognito] as Array<
      (o: unknown) => OAuthProvider
    >) {
      expect(() => make(creds)).toThrow(AuthConfigError);
    }
  });

  it('refuses the Entra multi-tenant aliases, whose issuer cannot be checked', () => {
    for (const tenantId of ['common', 'organizations', 'Consumers'])
      expect(() => oauth.microsoftEntraId({ ...creds, tenantId })).toThrow(/needs a tenant ID/);
  });

  it('builds the issuers of tenant-bound providers', () => {
    expect(oauth.microsoftEntraId({ ...creds, tenantId: '9188040d-6c67-4c5b-b112-36a304b66dad' }).issuer).toBe(
      'https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0',
    );
    expect(oauth.auth0({ ...creds, domain: 'example.us.auth0.com' }).issuer).toBe('https://example.us.auth0.com/');
    expect(cognitoIssuer('eu-west-1_AbCdEfGhI')).toBe(
      'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEfGhI',
    );
    expect(oauth.gitlab({ ...creds, baseUrl: 'https://git.example.com/' }).endpoints.token).toBe(
      'https://git.example.com/oauth/token',
    );
    expect(oauth.facebook({ ...creds, version: 'v24.0' }).endpoints.authorization).toBe(
      'https://www.facebook.com/v24.0/dialog/oauth',
    );
  });

  it('keeps provider-required parameters and merges the app’s', () => {
    const p = oauth.atlassian({ ...creds, authorizationParams: { prompt: 'none' } });
    expect(p.authorizationParams).toEqual({ audience: 'api.atlassian.com', prompt: 'none' });
    expect(JSON.parse(oauth.twitch(creds).authorizationParams.claims!)).toMatchObject({
      userinfo: { email: null, preferred_username: null },
    });
    expect(oauth.reddit(creds).headers['user-agent']).toBeTruthy();
    expect(oauth.notion(creds).headers['notion-version']).toBeTruthy();
    expect(oauth.slack(creds).tokenErrorsWith200).toBe(true);
    expect(oauth.kakao(creds).clientAuth).toBe('client_secret_post');
    expect(oauth.microsoftEntraId({ ...creds, tenantId: 't-1' }).skipUserInfo).toBe(true);
    expect(oauth.apple({ ...creds, teamId: 'T', keyId: 'K', privateKey: APPLE_KEY }).skipUserInfo).toBe(true);
    expect(oauth.google(creds).skipUserInfo).toBeFalsy();
  });

  it('createOAuth2Provider with an issuer needs no profile mapping', async () => {
    const p = oauth.createOAuth2Provider({ id: 'corp', name: 'Corp', issuer: 'https://sso.example.com', ...creds });
    expect(await p.profile(standard, tokens, ctx)).toMatchObject({ ...standardOut, emailVerified: expect.any(Date) });
    expect(() =>
      oauth.createOAuth2Provider({
        id: 'x',
        name: 'X',
        authorization: 'https://a.test/a',
        token: 'https://a.test/t',
        userinfo: 'https://a.test/u',
        ...creds,
      }),
    ).toThrow(/profile must be a function/);
  });

  it('standardClaimsProfile never marks an absent email verified', () => {
    expect(oauth.standardClaimsProfile({ sub: '1', email_verified: true }).emailVerified).toBeNull();
    expect(oauth.standardClaimsProfile({ sub: '1', email: 'a@b.c', email_verified: 'false' }).emailVerified).toBeNull();
  });
});

describe('presets with their own profile requests', () => {
  /** A fetch that records requests and answers from a route table. */
  function recorder(routes: Record<string, unknown>) {
    const seen: Array<{ url: string; method: string; authorization: string | null }> = [];
    const f = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const headers = new Headers(init?.headers);
      seen.push({ url, method: init?.method ?? 'GET', authorization: headers.get('authorization') });
      const hit = Object.entries(routes).find(([prefix]) => url.startsWith(prefix));
      return hit ? Response.json(hit[1]) : new Response('no', { status: 404 });
    }) as typeof fetch;
    return { seen, ctx: { callbackParams: new URLSearchParams(), fetch: f } };
  }

  it('dropbox POSTs to get_current_account', async () => {
    const r = recorder({
      'https://api.dropboxapi.com/2/users/get_current_account': {
        account_id: 'dbid:1',
        email: 'f@d.com',
        email_verified: true,
        name: { display_name: 'F' },
      },
    });
    const p = oauth.dropbox(creds);
    expect(await p.userinfo!(tokens, r.ctx)).toMatchObject({ account_id: 'dbid:1' });
    expect(r.seen).toEqual([
      { url: 'https://api.dropboxapi.com/2/users/get_current_account', method: 'POST', authorization: 'Bearer at-123' },
    ]);
  });

  it('yandex sends the token with the OAuth scheme', async () => {
    const r = recorder({ 'https://login.yandex.ru/info': { id: '1', login: 'ivan' } });
    await oauth.yandex(creds).userinfo!(tokens, r.ctx);
    expect(r.seen[0]).toMatchObject({ url: 'https://login.yandex.ru/info?format=json', authorization: 'OAuth at-123' });
  });

  it('bitbucket takes the primary confirmed address from the emails API', async () => {
    const r = recorder({
      'https://api.bitbucket.org/2.0/user/emails': {
        values: [
          { email: 'old@example.com', is_primary: false, is_confirmed: true },
          { email: 'main@example.com', is_primary: true, is_confirmed: true },
        ],
      },
      'https://api.bitbucket.org/2.0/user': { uuid: '{u}', display_name: 'T' },
    });
    const raw = await oauth.bitbucket(creds).userinfo!(tokens, r.ctx);
    expect(raw.confirmed_email).toBe('main@example.com');
    expect(
      bitbucketPrimaryEmail({ values: [{ email: 'x@example.com', is_primary: true, is_confirmed: false }] }),
    ).toBeNull();
    expect(bitbucketPrimaryEmail('junk')).toBeNull();
  });

  it('a failing profile API is an error naming the URL, never a half profile', async () => {
    const r = recorder({});
    await expect(oauth.dropbox(creds).userinfo!(tokens, r.ctx)).rejects.toThrow(
      /api\.dropboxapi\.com\/2\/users\/get_current_account answered HTTP 404/,
    );
  });
});
