/**
 * Talking to the auth routes: URLs, fetch settings, JSON answers, CSRF tokens.
 * @internal
 * @module
 */
import type { AuthClientOptions } from './types.js';

/** A resolved place to send requests to. */
export interface Endpoint {
  /** `{baseUrl}{basePath}`; also the cross-tab channel's name. */
  readonly base: string;
  readonly options: AuthClientOptions;
}

/** An answer of the auth routes: status and parsed JSON (null when the body is not JSON). */
export interface Answer {
  ok: boolean;
  status: number;
  data: unknown;
}

/** Resolves the options into an {@link Endpoint}. */
export function endpoint(options: AuthClientOptions = {}): Endpoint {
  const path = (options.basePath ?? '/auth').replace(/\/+$/, '');
  const origin = (options.baseUrl ?? '').replace(/\/+$/, '');
  return { base: origin + path, options };
}

/** Sends a request to `{base}{path}` and reads its JSON. Rejects only when the network fails. */
export async function call(ep: Endpoint, path: string, body?: Record<string, unknown>): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body) headers['content-type'] = 'application/json';
  const run = ep.options.fetch ?? fetch;
  const response = await run(ep.base + path, {
    method: body ? 'POST' : 'GET',
    headers,
    credentials: ep.options.baseUrl ? 'include' : 'same-origin',
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const data: unknown = await response.json().catch(() => null);
  return { ok: response.ok, status: response.status, data };
}

/** Fetches a CSRF token from `GET {base}/csrf` (the response also sets its cookie). */
export async function csrfToken(ep: Endpoint): Promise<string> {
  const answer = await call(ep, '/csrf');
  const token = (answer.data as { csrfToken?: unknown } | null)?.csrfToken;
  if (!answer.ok || typeof token !== 'string') throw new Error(`Could not get a CSRF token (status ${answer.status})`);
  return token;
}

/** The `error.code` of an error answer, or a code made from its status. */
export function errorCode(answer: Answer): string {
  const code = (answer.data as { error?: { code?: unknown } } | null)?.error?.code;
  return typeof code === 'string' ? code : `HTTP_${answer.status}`;
}

/** The `url` field of an answer, when there is one. */
export function urlOf(answer: Answer): string | undefined {
  const url = (answer.data as { url?: unknown } | null)?.url;
  return typeof url === 'string' ? url : undefined;
}

/** The origin of `url`, or undefined when it does not parse. */
function originOf(url: string, base?: string): string | undefined {
  try {
    return new URL(url, base).origin;
  } catch {
    return undefined;
  }
}

/**
 * Where the page may go for a URL the server answered with: `url` resolved
 * against the page's address, when it is http(s) and on the page's origin,
 * the `baseUrl` origin or one of `navigationOrigins`; `/` otherwise. So a
 * hostile or compromised answer (`javascript:…`, `//evil.example/x`,
 * `/\evil.example`, `https://evil.example`) cannot steer the page off-site.
 */
export function safeNavigationUrl(url: string, options: AuthClientOptions, here: string): string {
  let target: URL;
  try {
    target = new URL(url, here);
  } catch {
    return '/';
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return '/';
  const allowed = [here, options.baseUrl, ...(options.navigationOrigins ?? [])]
    .filter((o): o is string => !!o)
    .map((o) => originOf(o));
  return allowed.includes(target.origin) ? target.href : '/';
}

/** Navigates the page, when there is one, to {@link safeNavigationUrl} of `url`. */
export function navigate(url: string, options: AuthClientOptions): void {
  const location = (globalThis as { location?: Location }).location;
  if (location) location.assign(safeNavigationUrl(url, options, location.href));
}

/** The page's own address, used as the default callback URL. */
export function currentUrl(): string | undefined {
  return (globalThis as { location?: Location }).location?.href;
}
