/** `GET /providers` lists, for every provider, only URLs the engine really serves. */
import { describe, expect, it } from 'vitest';
import { createAuth } from '../auth.js';
import { credentials } from '../providers/credentials.js';
import { email } from '../providers/email.js';
import { github } from '../providers/oauth/presets/codehost.js';
import { passkey } from '../plugins/passkey/provider.js';
import { createMemoryAdapter } from '../storage/memory.js';

const ORIGIN = 'https://app.test';
const quiet = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };

function engine() {
  return createAuth({
    secret: 's'.repeat(40),
    adapter: createMemoryAdapter(),
    baseURL: ORIGIN,
    logger: quiet,
    providers: [
      credentials({ credentials: { email: { label: 'Email', type: 'email' } }, authorize: async () => null }),
      email({ from: 'login@app.test', sendVerificationRequest: async () => {} }),
      github({ id: 'acme', clientId: 'id', clientSecret: 'secret' }),
      passkey({ rpName: 'App', allowSignUp: true }),
    ],
  });
}

describe('GET /providers', () => {
  it('every listed URL is served: a POST with a valid CSRF token reaches its action, never 404/405', async () => {
    const auth = engine();
    const listed = (await (await auth.handler(new Request(`${ORIGIN}/auth/providers`))).json()) as Record<
      string,
      Record<string, string>
    >;
    expect(Object.keys(listed).sort()).toEqual(['acme', 'credentials', 'email', 'passkey']);
    const urls = Object.values(listed).flatMap((entry) =>
      Object.entries(entry)
        .filter(([key]) => key.endsWith('Url'))
        .map(([, url]) => url),
    );
    expect(urls.length).toBe(8);
    const csrf = await auth.handler(new Request(`${ORIGIN}/auth/csrf`));
    const cookie = csrf.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    for (const url of urls) {
      expect(url.startsWith(`${ORIGIN}/auth/`)).toBe(true);
      const res = await auth.handler(
        new Request(url, {
          method: 'POST',
          headers: { accept: 'application/json', origin: ORIGIN, cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ csrfToken }),
        }),
      );
      const code = res.status >= 400 ? ((await res.json()) as { error: { code: string } }).error.code : 'OK';
      expect({ url, code }).toEqual({ url, code: expect.not.stringMatching(/NOT_FOUND|METHOD_NOT_ALLOWED|CSRF/) });
    }
  });

  it('a passkey provider lists its ceremony routes instead of signin/callback, which it does not serve', async () => {
    const auth = engine();
    const listed = (await (await auth.handler(new Request(`${ORIGIN}/auth/providers`))).json()) as Record<
      string,
      Record<string, string>
    >;
    expect(listed.passkey).toEqual({
      id: 'passkey',
      name: expect.any(String),
      type: 'passkey',
      authenticateUrl: `${ORIGIN}/auth/passkey/authenticate/options`,
      registerUrl: `${ORIGIN}/auth/passkey/register/options`,
    });
  });
});
