/**
 * The Web `Request` of a Server Component or Server Action, rebuilt from `next/headers`.
 * @module
 */
import { headers } from 'next/headers';
import { requestUrlOf } from '@framework/auth';
import { PATH_HEADER } from './path-header.js';

/**
 * A `Request` carrying the incoming headers (cookies, `Authorization`, `Accept`) at the path the middleware
 * forwarded in `x-framework-path` (else `/`), on the `Host` and protocol Next.js reports. A `Host` the kit would
 * refuse, or a forwarded value that is not a path, falls back to `http://localhost/`: only the headers matter for
 * reading a session.
 */
export async function requestFromNext(): Promise<Request> {
  const incoming = new Headers(await headers());
  const path = incoming.get(PATH_HEADER) ?? '/';
  const protocol = incoming.get('x-forwarded-proto') === 'https' ? 'https' : 'http';
  let url: string;
  try {
    url = requestUrlOf({ protocol, host: incoming.get('host') ?? undefined, target: path });
  } catch {
    url = 'http://localhost/';
  }
  return new Request(url, { headers: incoming });
}
