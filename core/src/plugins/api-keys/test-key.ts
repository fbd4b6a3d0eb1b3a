/**
 * Test helper shared by the adapter tests: an auth with `apiKeys()`, an
 * editor (`posts:*`) signed in through `auth.handler`, and a key of theirs.
 * @module
 * @internal
 */
import { createAuth, type Auth } from '../../auth.js';
import { credentials } from '../../providers/credentials.js';
import { passwordAccounts } from '../../password-accounts.js';
import { defineRBAC } from '../../rbac/define.js';
import { createMemoryAdapter } from '../../storage/memory.js';
import { apiKeys } from './plugin.js';
import { createMemoryApiKeyStorage } from './storage/memory.js';

const EMAIL = 'ada@example.com';
const PASSWORD = 'analytical-engine';

/**
 * An auth on `origin` whose user (role `editor`: `posts:*`) holds a key with
 * `permissions`, limited to `limit` requests per minute.
 */
export async function apiKeyTestApp(
  origin: string,
  permissions: string,
  limit: number,
): Promise<{ auth: Auth; userId: string; key: string }> {
  const adapter = createMemoryAdapter();
  const passwords = passwordAccounts(adapter);
  const user = await passwords.register({ email: EMAIL, password: PASSWORD });
  await adapter.updateUser(user.id, { role: 'editor' });
  const auth = createAuth({
    secret: 's'.repeat(40),
    baseURL: origin,
    adapter,
    rbac: defineRBAC({ roles: [{ id: 'editor', name: 'Editor', permissions: ['posts:*'] }] }),
    providers: [
      credentials({
        credentials: { email: { label: 'E', type: 'email' }, password: { label: 'P', type: 'password' } },
        authorize: passwords.authorize,
      }),
    ],
    plugins: [apiKeys({ storage: createMemoryApiKeyStorage(), rateLimit: { limit, window: 60 } })],
    rateLimit: { login: false },
  });
  return { auth, userId: user.id, key: await createTestKey(auth, origin, EMAIL, PASSWORD, permissions) };
}

/**
 * Signs in `email` / `password` (credentials provider) on `origin` and
 * creates a key with `permissions` (space-separated).
 * @throws Error when the sign-in or the creation does not succeed.
 */
async function createTestKey(
  auth: Auth,
  origin: string,
  email: string,
  password: string,
  permissions: string,
): Promise<string> {
  const csrfRes = await auth.handler(new Request(`${origin}/auth/csrf`));
  const csrf = csrfRes.headers.getSetCookie()[0]!.split(';')[0]!;
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const post = (path: string, cookie: string, body: Record<string, string>) =>
    auth.handler(
      new Request(`${origin}${path}`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json', accept: 'application/json', cookie },
        body: JSON.stringify({ csrfToken, ...body }),
      }),
    );
  const signIn = await post('/auth/callback/credentials', csrf, { email, password });
  const session = signIn.headers
    .getSetCookie()
    .find((l) => l.startsWith('framework.session-token='))
    ?.split(';')[0];
  if (!session) throw new Error(`sign-in failed with ${signIn.status}`);
  const res = await post('/auth/api-keys', `${csrf}; ${session}`, { permissions });
  if (res.status !== 201) throw new Error(`key creation failed with ${res.status}`);
  return ((await res.json()) as { key: string }).key;
}
