/**
 * Web `Response` → Fastify reply.
 * @module
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyReply } from 'fastify';

/**
 * Sends `response` through `reply`: its status, its headers (each Set-Cookie appended to those already on the
 * reply, set by the session hook or `reply.header`, so none is lost; other headers of the response win over
 * earlier ones) and its body, streamed by Fastify with back-pressure (`reply.send(ReadableStream)`).
 *
 * @returns the reply, so an async handler or hook can `return sendWebResponse(reply, response)`.
 * @example
 * ```ts
 * app.get('/report', (request, reply) =>
 *   sendWebResponse(reply, new Response(reportStream(), { headers: { 'content-type': 'text/csv' } })),
 * );
 * ```
 */
export function sendWebResponse(reply: FastifyReply, response: Response): FastifyReply {
  reply.code(response.status);
  for (const [name, value] of response.headers) if (name !== 'set-cookie') reply.header(name, value);
  for (const cookie of response.headers.getSetCookie()) reply.header('set-cookie', cookie);
  return reply.send(response.body ?? undefined);
}

/**
 * Lets go of a request body the handler did not read (a 413 answered from `content-length`, a 405) once the
 * answer is out: cancels the Web stream and drains the Node one, so a kept-alive connection can carry the next
 * request.
 */
export function releaseBodyAfter(reply: FastifyReply, raw: IncomingMessage, request: Request): void {
  reply.raw.once('finish', () => {
    if (raw.readableEnded || request.bodyUsed || !request.body) return;
    void request.body.cancel().catch(() => {});
    raw.resume();
  });
}
