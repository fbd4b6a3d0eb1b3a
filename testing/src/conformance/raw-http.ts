/**
 * Requests a `fetch` cannot send, for the adapters' hostile-input tests: a
 * malformed `Host`, an absolute-form request target (RFC 9112 §3.2.2), a
 * chunked body written piece by piece; over a keep-alive agent, so a test can
 * check that the next request still travels on the same connection.
 * @module
 */
import { Agent, request } from 'node:http';

/** What {@link rawRequest} sends. */
export interface RawRequest {
  method?: string;
  /** The request target as written on the request line: `/path?q` or `http://host/path`. */
  target: string;
  headers?: Record<string, string>;
  /** Body pieces, written one by one with chunked transfer coding when there is no `content-length`. */
  chunks?: Array<string | Uint8Array>;
}

/** The answer: status, headers, the body as text, and whether the agent reused a kept-alive socket. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  reusedSocket: boolean;
}

/** A keep-alive agent with one socket, so consecutive requests share a connection. */
export function singleConnectionAgent(): Agent {
  return new Agent({ keepAlive: true, maxSockets: 1 });
}

/**
 * Sends `raw` to the server at `baseUrl` (`http://127.0.0.1:PORT`) through
 * `agent`. Rejects on a socket error (a reset connection) or after 10 s.
 */
export function rawRequest(baseUrl: string, agent: Agent, raw: RawRequest): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        agent,
        method: raw.method ?? 'GET',
        path: raw.target,
        headers: raw.headers,
        setHost: !raw.headers?.host,
        timeout: 10_000,
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (chunk: Buffer) => parts.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(parts).toString('utf8'),
            reusedSocket: req.reusedSocket,
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer to ${raw.method ?? 'GET'} ${raw.target} within 10 s`)));
    req.on('error', reject);
    for (const chunk of raw.chunks ?? []) req.write(chunk);
    req.end();
  });
}

/** True when `text` looks like a JavaScript stack trace (`    at fn (file:line:col)`). */
export function looksLikeStack(text: string): boolean {
  return /^\s*at .+[:(]/m.test(text) || /\.(?:js|ts|mjs):\d+:\d+/.test(text);
}
