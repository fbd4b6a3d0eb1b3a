/**
 * `auth.api`: every route, core and plugin, called from server code without building a `Request` by hand. A call
 * runs the route through the same dispatch as HTTP (body limits, rate limits, hooks, events) as JSON, acting as the
 * session in `headers`. It skips only the CSRF checks: server code is not a cross-site page.
 * @internal
 * @module
 */
import { AuthError } from '../errors.js';
import type { ApiCallOptions, ApiEndpoint } from '../contract/api.js';
import type { AuthInternals, RequestInfo } from '../contract/types.js';

const serverCalls = new WeakSet<RequestInfo>();

/** True for the `RequestInfo` of an `auth.api` call (made here only, so an HTTP request can never claim it). */
export function isServerCall(info: RequestInfo): boolean {
  return serverCalls.has(info);
}

type Handle = (request: Request, info: RequestInfo) => Promise<Response>;
type Call = (body?: unknown, options?: ApiCallOptions & { returnHeaders?: boolean }) => Promise<unknown>;

function originOf(auth: AuthInternals, headers: Headers): string {
  if (auth.originPolicy.baseURL) return new URL(auth.originPolicy.baseURL).origin;
  const host = headers.get('host');
  return host && /^[a-z0-9.-]+(:\d{1,5})?$/i.test(host) ? `http://${host}` : 'http://localhost';
}

function requestOf(auth: AuthInternals, endpoint: ApiEndpoint<unknown, unknown>, body: unknown, o: ApiCallOptions) {
  const headers = new Headers(o.headers);
  headers.set('accept', 'application/json');
  const path = endpoint.path.replace(':provider', encodeURIComponent(o.provider ?? 'credentials'));
  const url = new URL(`${originOf(auth, headers)}${auth.config.basePath}/${path}`);
  for (const [k, v] of Object.entries(o.query ?? {})) url.searchParams.set(k, v);
  if (endpoint.method === 'GET') return new Request(url, { headers });
  headers.set('content-type', 'application/json');
  return new Request(url, { method: 'POST', headers, body: JSON.stringify(body ?? {}) });
}

async function answerOf(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function errorOf(status: number, data: unknown, headers: Headers): AuthError {
  const error = (data as { error?: { code?: string; message?: string } } | null)?.error;
  const extra: Record<string, string> = {};
  for (const name of ['retry-after', 'allow']) if (headers.has(name)) extra[name] = headers.get(name)!;
  return new AuthError(error?.message ?? 'The request failed', {
    code: (error?.code ?? 'INTERNAL_ERROR') as AuthError['code'],
    status,
    headers: extra,
  });
}

/** One `auth.api` method for `endpoint`. */
function callOf(auth: AuthInternals, handle: Handle, endpoint: ApiEndpoint<unknown, unknown>): Call {
  return async (body, options = {}) => {
    const info: RequestInfo = options.ip ? { ip: options.ip } : {};
    serverCalls.add(info);
    const response = await handle(requestOf(auth, endpoint, body, options), info);
    const data = await answerOf(response);
    if (response.status >= 400) throw errorOf(response.status, data, response.headers);
    return options.returnHeaders ? { data, headers: response.headers, status: response.status } : data;
  };
}

/**
 * Builds `auth.api` from endpoint records (the core's, then each plugin's `api`).
 * @throws AuthConfigError never; a duplicate method name keeps the first.
 */
export function createServerApi(
  auth: AuthInternals,
  handle: Handle,
  records: readonly (Readonly<Record<string, ApiEndpoint<any, any>>> | undefined)[],
): Record<string, Call> {
  const api: Record<string, Call> = {};
  for (const record of records)
    for (const [name, endpoint] of Object.entries(record ?? {}))
      if (!Object.hasOwn(api, name)) api[name] = callOf(auth, handle, endpoint);
  return api;
}
