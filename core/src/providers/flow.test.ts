/**
 * Providers carry their sign-in flow: the core routes run it, a copied provider keeps it, and an OAuth or email
 * provider without one is refused at `createAuth`.
 */
import { describe, expect, it } from 'vitest';
import { createAuth } from '../auth.js';
import { createMemoryAdapter } from '../storage/memory.js';
import { email } from './email.js';
import { flowOf } from './flow.js';
import { github } from './oauth/presets/codehost.js';
import type { Provider } from './types.js';

const secret = 'flow-test-secret-flow-test-secret-0123456789';
const gh = github({ clientId: 'id', clientSecret: 'secret' });

describe('provider flows', () => {
  it('OAuth presets and email() carry a flow; a spread copy keeps it', () => {
    expect(flowOf(gh)?.refresh).toBeTypeOf('function');
    expect(flowOf(email({ from: 'a@example.com', sendVerificationRequest: async () => {} }))?.refresh).toBeUndefined();
    expect(flowOf({ ...gh, id: 'gh-work' })).toBe(flowOf(gh));
    expect(JSON.stringify(gh)).not.toContain('signIn');
  });

  it('a copied preset with another id signs in through its own routes', async () => {
    const auth = createAuth({ secret, adapter: createMemoryAdapter(), providers: [{ ...gh, id: 'gh-work' }] });
    const csrf = await auth.handler(new Request('http://localhost/auth/csrf'));
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const cookie = csrf.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const res = await auth.handler(
      new Request('http://localhost/auth/signin/gh-work', {
        method: 'POST',
        headers: { cookie, origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrfToken }).toString(),
      }),
    );
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe('https://github.com/login/oauth/authorize');
    expect(location.searchParams.get('redirect_uri')).toBe('http://localhost/auth/callback/gh-work');
  });

  it('refuses an OAuth or email provider written as a plain object (no flow)', () => {
    const plain = Object.fromEntries(Object.entries(gh)) as unknown as Provider;
    expect(flowOf(plain)).toBeUndefined();
    expect(() => createAuth({ secret, adapter: createMemoryAdapter(), providers: [plain] })).toThrow(
      /provider "github" has no sign-in flow; build it with createOAuth2Provider\(\), a preset or email\(\)/,
    );
  });
});
