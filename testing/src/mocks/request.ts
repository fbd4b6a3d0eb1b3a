/**
 * `createMockRequest`: a Web `Request` on `http://localhost`.
 * @module
 */

/** Options of {@link createMockRequest}. */
export interface MockRequestInit {
  /** Default `GET`, or `POST` when a body is given. */
  method?: string;
  headers?: HeadersInit;
  /**
   * A plain object or array is sent as JSON with `content-type:
   * application/json` (unless a content type is given); strings, `FormData`,
   * `URLSearchParams`, `Blob`, buffers and streams are sent as they are.
   */
  body?: unknown;
}

function isJsonBody(body: unknown): boolean {
  if (Array.isArray(body)) return true;
  if (body === null || typeof body !== 'object') return false;
  const proto = Object.getPrototypeOf(body) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * A `Request` for `path` on `http://localhost` (an absolute URL is kept).
 *
 * @example
 * ```ts
 * const request = createMockRequest('/api/posts', { body: { title: 'Hello' } });
 * // POST, content-type: application/json, body '{"title":"Hello"}'
 * ```
 */
export function createMockRequest(path: string, init: MockRequestInit = {}): Request {
  const headers = new Headers(init.headers);
  let body = init.body as BodyInit | null | undefined;
  if (isJsonBody(init.body)) {
    body = JSON.stringify(init.body);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  const method = init.method ?? (body === undefined || body === null ? 'GET' : 'POST');
  const request: RequestInit & { duplex?: 'half' } = { method, headers };
  if (body !== undefined && body !== null) request.body = body;
  if (typeof ReadableStream !== 'undefined' && body instanceof ReadableStream) request.duplex = 'half';
  return new Request(new URL(path, 'http://localhost'), request);
}
