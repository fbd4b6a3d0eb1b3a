/**
 * A stand-in for SvelteKit's request pipeline in unit tests: an event as
 * SvelteKit builds it, and a `resolve` that answers a route's thrown
 * `redirect` / `error` the way SvelteKit does.
 * @internal
 * @module
 */
import { isHttpError, isRedirect, type Handle, type RequestEvent } from '@sveltejs/kit';
import { ORIGIN } from '@framework/testing/conformance';

/** A request event for `path` on the fixture origin. */
export function fakeEvent(path: string, init: RequestInit = {}, extra: Partial<RequestEvent> = {}): RequestEvent {
  const request = new Request(`${ORIGIN}${path}`, init);
  const event = {
    request,
    url: new URL(request.url),
    locals: {},
    isDataRequest: false,
    getClientAddress: () => '203.0.113.9',
    ...extra,
  };
  return event as unknown as RequestEvent;
}

/** Runs `handle` with a route; a thrown `redirect` becomes its status + Location, an `error` JSON `{message, code}`. */
export async function runHandle(
  handle: Handle,
  event: RequestEvent,
  route: (event: RequestEvent) => Response | Promise<Response>,
): Promise<Response> {
  return handle({
    event,
    resolve: async (e) => {
      try {
        return await route(e);
      } catch (thrown) {
        if (isRedirect(thrown))
          return new Response(null, { status: thrown.status, headers: { location: thrown.location } });
        if (isHttpError(thrown)) return Response.json(thrown.body, { status: thrown.status });
        throw thrown;
      }
    },
  });
}
