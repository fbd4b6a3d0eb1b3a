/**
 * A `fetch` over `node:http` / `node:https` that connects to the addresses a given resolver answers, and to no
 * others: the resolver is the socket's own `lookup`, so the address that is checked is the address that is
 * connected to (no second resolution in between: the DNS-rebinding window of check-then-fetch is closed). TLS
 * still verifies the certificate against the URL's host name (SNI and `Host` are the name, not the address).
 * Redirects are never followed.
 * @module
 * @internal
 */
import type { LookupAddress } from 'node:dns';
import type { IncomingMessage, RequestOptions } from 'node:http';

/**
 * Resolves a host name to the addresses the connection may use, all of them already judged acceptable; throws (or
 * rejects) to refuse the connection, and that error is what the `fetch` rejects with.
 */
export type VettedResolve = (hostname: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

/** Connection settings of {@link pinnedFetch}. */
export interface PinnedOptions {
  /** PEM certificates trusted instead of the default root store (tests trust their own authority). */
  ca?: string | string[];
  /**
   * How long the socket may stay idle (connecting, waiting for headers, or between body chunks) before the request
   * fails, in milliseconds. Default {@link IDLE_TIMEOUT_MS}.
   */
  idleTimeoutMs?: number;
}

/** The default idle timeout of a pinned request, in milliseconds: 30 s (a stalled IdP cannot hold a sign-in). */
export const IDLE_TIMEOUT_MS = 30_000;

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** The `lookup` of a socket, answered by `resolve` (both the single-address and the `all: true` forms). */
function socketLookup(resolve: VettedResolve) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback) => {
    resolve(hostname).then(
      (answers) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = answers.filter((a) => wanted === 0 || a.family === wanted);
        if (usable.length === 0) {
          callback(Object.assign(new Error(`No usable address for ${hostname}`), { code: 'ENOTFOUND' }), '');
          return;
        }
        if (options.all)
          callback(
            null,
            usable.map((a) => ({ address: a.address, family: a.family })),
          );
        else callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, ''),
    );
  };
}

/** Statuses whose responses have no body (the `Response` constructor refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

/** The headers of a Node response as `Headers` (repeated fields appended). */
function headersOf(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  return headers;
}

/**
 * A `fetch` whose connections go only to the addresses `resolve` answers for the URL's host. Address literals are
 * connected to as they are (the caller checks them). `http:` and `https:` only; redirects are returned, never
 * followed (whatever `init.redirect` says); the body is streamed; `init.signal` aborts the request and the body.
 * @param resolve The vetted resolver (see {@link VettedResolve}).
 * @param settings The trusted authorities (tests) and the idle timeout.
 * @returns A `fetch`-compatible function. It rejects with `resolve`'s error when the resolver refuses, with a
 *   `TypeError` for another scheme, and with the network error otherwise.
 * @example
 * ```ts
 * const send = pinnedFetch(async (host) => [{ address: '93.184.215.14', family: 4 }]);
 * const res = await send('https://idp.example.com/.well-known/openid-configuration');
 * ```
 */
export function pinnedFetch(resolve: VettedResolve, settings: PinnedOptions = {}): typeof fetch {
  const lookup = socketLookup(resolve);
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new TypeError(`Unsupported protocol ${url.protocol}`);
    const body = request.body ? new Uint8Array(await request.arrayBuffer()) : null;
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    if (body) headers['content-length'] = String(body.byteLength);
    // The body is handed on as it comes (no decompression here): ask for it unencoded (RFC 9110 §12.5.3).
    headers['accept-encoding'] = 'identity';
    const signal = request.signal;
    signal.throwIfAborted();
    const client = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
    const { Readable } = await import('node:stream');
    const options: RequestOptions & Pick<PinnedOptions, 'ca'> = {
      method: request.method,
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      headers,
      // A fresh connection per request: none is reused from a pool that another resolution filled.
      agent: false,
      lookup: lookup as RequestOptions['lookup'],
      signal,
      timeout: settings.idleTimeoutMs ?? IDLE_TIMEOUT_MS,
      ...(url.protocol === 'https:' && settings.ca ? { ca: settings.ca } : {}),
    };
    return new Promise<Response>((fulfil, reject) => {
      const req = client.request(options, (res) => {
        const status = res.statusCode ?? 0;
        const stream = NULL_BODY.has(status) || request.method === 'HEAD' ? null : res;
        if (!stream) res.resume();
        try {
          fulfil(
            new Response(stream ? (Readable.toWeb(stream) as ReadableStream<Uint8Array>) : null, {
              status,
              statusText: res.statusMessage ?? '',
              headers: headersOf(res),
            }),
          );
        } catch (error) {
          res.destroy();
          reject(error instanceof Error ? error : new TypeError('Invalid response'));
        }
      });
      req.on('timeout', () => req.destroy(new Error(`No answer from ${url.host} (idle timeout)`)));
      req.on('error', (error) => reject(signal.aborted ? signal.reason : error));
      req.end(body ?? undefined);
    });
  };
}
