/**
 * Set-Cookie onto what a loader returns: a `Response`, `data(value, init)`,
 * or a plain value (wrapped in `data`).
 * @module
 */
import { data } from 'react-router';

/** What `data(value, init)` from react-router returns. */
export type DataResult<T> = ReturnType<typeof data<T>>;

/** A loader's result once cookies are attached: Responses and `data()` stay, plain values become `data()`. */
export type WithCookies<T> = T extends Response ? T : T extends DataResult<infer D> ? DataResult<D> : DataResult<T>;

function isDataResult(value: unknown): value is DataResult<unknown> {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'DataWithResponseInit';
}

function appendNew(target: Headers, lines: readonly string[]): void {
  const present = new Set(target.getSetCookie());
  for (const line of lines) if (!present.has(line)) target.append('set-cookie', line);
}

/**
 * `response` with the Set-Cookie lines of `headers` added (those it already
 * carries are not repeated); a copy when its headers are immutable.
 * @example
 * ```ts
 * const { user, headers } = await getSession(request);
 * if (!user) throw withCookies(redirect('/login'), headers);
 * ```
 */
export function withCookies(response: Response, headers: Headers): Response {
  const lines = headers.getSetCookie();
  if (lines.length === 0) return response;
  try {
    appendNew(response.headers, lines);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    appendNew(copy.headers, lines);
    return copy;
  }
}

/** @internal Attaches the Set-Cookie lines of `headers` to a loader's result. */
export function attachCookies<T>(result: T, headers: Headers): WithCookies<T> {
  if (result instanceof Response) return withCookies(result, headers) as WithCookies<T>;
  if (isDataResult(result)) {
    const merged = new Headers(result.init?.headers);
    appendNew(merged, headers.getSetCookie());
    result.init = { ...result.init, headers: merged };
    return result as WithCookies<T>;
  }
  const init = new Headers();
  appendNew(init, headers.getSetCookie());
  return data(result, { headers: init }) as WithCookies<T>;
}
