/**
 * Routes whose body the kit streams itself (the auth routes, webhooks).
 * @internal
 * @module
 */
import type { FastifyInstance } from 'fastify';

/**
 * Replaces the content-type parsers of `instance` (an encapsulated context: the change stays inside it) with one
 * that accepts every type and reads nothing, so the body is still unread in `request.raw` when the handler runs:
 * the kit then reads it through its own streaming limit (`readFormBody`: 413 past 64 KiB, chunked or not) and a
 * webhook verifier sees the exact bytes. Fastify's `bodyLimit` applies only to its own parsers, so it does not
 * interfere.
 */
export function leaveBodiesUnread(instance: FastifyInstance): void {
  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
}
