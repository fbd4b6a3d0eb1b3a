/**
 * Test fixtures for the core's own tests: an auth instance over the memory
 * adapter with a registered user, and a tiny in-process client that keeps
 * cookies and fetches CSRF tokens like a browser would.
 * @internal
 * @module
 */
import { createAuth, type Auth, type CreateAuthOptions } from '../auth.js';
import { credentials } from '../providers/credentials.js';
import { passwordAccounts } from '../password-accounts.js';
import { createMemoryAdapter } from '../storage/memory.js';
import type { StorageAdapter } from '../storage/types.js';
import type { AuthPlugin } from '../contract/types.js';

export const SECRET = 'test-secret-test-secret-test-secret-0123456789';
export const ORIGIN = 'http://app.test';
export const EMAIL = 'ada@example.com';
export const PASSWORD = 'analytical-engine';

export interface Fixture {
  auth: Auth;
  adapter: StorageAdapter;
  userId: string;
  client(): TestClient;
}

/** An auth instance with one registered user (`EMAIL` / `PASSWORD`). */
export async function makeFixture(
  strategy: 'database' | 'jwt',
  overrides: Partial<CreateAuthOptions> = {},
): Promise<Fixture> {
  const adapter = overrides.adapter ?? createMemoryAdapter();
  await adapter.migrate();
  const passwords = passwordAccounts(adapter);
  const user = await passwords.register({ email: EMAIL, password: PASSWORD, name: 'Ada' });
  const auth = createAuth({
    session: { strategy },
    secret: SECRET,
    adapter,
    providers: [
      credentials({
        credentials: {
          email: { label: 'Email', type: 'email', required: true },
          password: { label: 'Password', type: 'password', required: true },
        },
        authorize: passwords.authorize,
      }),
    ],
    logger: { error: () => {}, warn: () => {} },
    ...overrides,
  });
  return { auth, adapter, userId: user.id, client: () => new TestClient(auth) };
}

/** Keeps cookies across in-process requests to `auth.handler`. */
export class TestClient {
  readonly cookies = new Map<string, string>();
  /** The client IP address handed to `auth.handler` (as a server adapter would), when set. */
  ip: string | undefined;
  constructor(readonly auth: Auth) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0 && !headers.has('cookie')) headers.set('cookie', this.cookieHeader());
    const res = await this.auth.handler(
      new Request(`${ORIGIN}${path}`, { ...init, headers }),
      this.ip ? { ip: this.ip } : undefined,
    );
    this.store(res);
    return res;
  }

  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async csrf(): Promise<string> {
    const res = await this.request('/auth/csrf');
    return ((await res.json()) as { csrfToken: string }).csrfToken;
  }

  /** Posts JSON with a fresh CSRF token. */
  async postJson(path: string, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Response> {
    const csrfToken = await this.csrf();
    return this.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify({ csrfToken, ...body }),
    });
  }

  /** Posts an HTML form with a fresh CSRF token. */
  async postForm(path: string, body: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    const csrfToken = await this.csrf();
    return this.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', ...headers },
      body: new URLSearchParams({ csrfToken, ...body }).toString(),
    });
  }

  /**
   * Opens an emailed link as a person does: GETs its page, then submits the page's POST form with its hidden
   * fields (and `extra` fields, e.g. a new password). Answers the GET's response when the page has no form.
   */
  async followLink(url: string, extra: Record<string, string> = {}): Promise<Response> {
    const u = new URL(url);
    const page = await this.request(`${u.pathname}${u.search}`, { headers: { accept: 'text/html' } });
    const html = await page.clone().text();
    const form = /<form method="post" action="([^"]*)">([\s\S]*?)<\/form>/.exec(html);
    if (!form) return page;
    const fields: Record<string, string> = {};
    for (const input of form[2]!.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g))
      fields[unescapeHtml(input[1]!)] = unescapeHtml(input[2]!);
    return this.request(unescapeHtml(form[1]!), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin: ORIGIN },
      body: new URLSearchParams({ ...fields, ...extra }).toString(),
    });
  }

  async signIn(email = EMAIL, password = PASSWORD): Promise<Response> {
    return this.postJson('/auth/callback/credentials', { email, password });
  }

  async session(): Promise<{
    user: { id: string; email: string | null; name: string | null };
    expires: string;
  } | null> {
    const res = await this.request('/auth/session', { headers: { accept: 'application/json' } });
    return (await res.json()) as never;
  }
}

/** Reverses the default pages' attribute escaping. */
function unescapeHtml(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) =>
    e === 'amp' ? '&' : e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : "'",
  );
}

/**
 * A plugin whose `resolveSession` reads `Authorization: Bearer good` as the service user `svc` (a stand-in for a
 * credential plugin such as API keys), and nothing else.
 */
export function bearerStubPlugin(): AuthPlugin<'bearer'> {
  return {
    id: 'bearer',
    hooks: {
      resolveSession: (request) =>
        request.headers.get('authorization') === 'Bearer good'
          ? {
              session: { user: { id: 'svc' }, expires: new Date('2100-01-01T00:00:00Z') },
              user: { id: 'svc' },
              expired: false,
              headers: new Headers(),
            }
          : undefined,
    },
  };
}
