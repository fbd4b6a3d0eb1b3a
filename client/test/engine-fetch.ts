/**
 * The real auth engine behind a browser-like fetch (no HTTP server): each request goes to `auth.handler` with
 * the page's Origin, and cookies are kept in a jar per browser, as a browser would.
 */
import {
  createAuth,
  credentials,
  createMemoryAdapter,
  passwordAccounts,
  type AuthPlugin,
  type CreateAuthOptions,
} from '@framework/auth';
import { createAuthClient } from '../src/index.js';

/**
 * One registered user (`ada@example.com` / `analytical-engine`) on database sessions; `extra` adds options (its
 * `plugins` type the engine: `auth.extensions`, its error codes).
 */
export async function engine<const P extends readonly AuthPlugin<string, unknown, any>[] = []>(
  extra: Partial<CreateAuthOptions<P>> = {},
) {
  const adapter = createMemoryAdapter();
  const passwords = passwordAccounts(adapter);
  const ada = await passwords.register({ email: 'ada@example.com', password: 'analytical-engine', name: 'Ada' });
  const auth = createAuth({
    session: { strategy: 'database' },
    adapter,
    providers: [
      credentials({
        credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
        authorize: passwords.authorize,
      }),
    ],
    ...extra,
  });
  /** A browser: its own cookie jar, every request handed to `auth.handler`. */
  const browser = () => {
    const { fetch: fetcher, jar } = browserFetch(auth);
    return { fetch: fetcher, jar, client: createAuthClient({ fetch: fetcher }) };
  };
  return { auth, adapter, ada, browser };
}

/** A browser's fetch against `auth.handler`: the page's Origin on every request, and its own cookie jar. */
export function browserFetch(auth: { handler(request: Request): Promise<Response> }) {
  const jar = new Map<string, string>();
  const fetcher: typeof fetch = async (input, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set('origin', 'http://app.test');
    if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await auth.handler(new Request(new URL(String(input), 'http://app.test'), { ...init, headers }));
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (value === '' || /max-age=0/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  };
  return { fetch: fetcher, jar };
}
