/**
 * Web `Response` → Express response, streamed by node-fetch-server.
 * @internal
 * @module
 */
import type { IncomingMessage } from 'node:http';
import type { Response as ExpressResponse } from 'express';
import { sendResponse } from '@remix-run/node-fetch-server';

/**
 * Streams `response` to `res`. Every Set-Cookie of the response is appended
 * to those already set on `res` (by `authSession` or `res.cookie`), so
 * none is lost; other headers of the response win over earlier ones. The
 * body is streamed with back-pressure (node-fetch-server's `sendResponse`).
 *
 * @returns a promise that settles when the body has been written (or the
 *   client went away); it rejects if the body stream fails.
 * @example
 * ```ts
 * app.get('/report', (req, res, next) => {
 *   sendWebResponse(res, new Response(reportStream(), { headers: { 'content-type': 'text/csv' } })).catch(next);
 * });
 * ```
 */
export async function sendWebResponse(res: ExpressResponse, response: Response): Promise<void> {
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) {
    for (const cookie of cookies) res.append('Set-Cookie', cookie);
    const headers = new Headers(response.headers);
    headers.delete('set-cookie');
    response = new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
  await sendResponse(res, response);
}

/**
 * Lets go of a request body the handler did not read (a 413 answered from
 * `content-length`, a 405): cancels the Web stream and drains the Node one,
 * so a kept-alive connection can carry the next request.
 */
export function releaseBody(req: IncomingMessage, request: Request): void {
  if (req.readableEnded || request.bodyUsed || !request.body) return;
  void request.body.cancel().catch(() => {});
  req.resume();
}
