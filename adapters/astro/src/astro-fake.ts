/**
 * Runs Astro middleware the way Astro does, without Astro: a context with the request, its URL, fresh `locals`
 * and the client address, and `next()` rendering the "page" given. For the adapter's in-process tests.
 * @internal
 * @module
 */
import type { APIContext, MiddlewareHandler } from 'astro';

/** The page or endpoint behind the middleware. */
export type FakeRoute = (context: APIContext) => Response | Promise<Response>;

/** The context Astro would build for `request`. */
export function fakeContext(request: Request, options: { isPrerendered?: boolean } = {}): APIContext {
  return {
    request,
    url: new URL(request.url),
    locals: {},
    clientAddress: '203.0.113.7',
    isPrerendered: options.isPrerendered ?? false,
  } as unknown as APIContext;
}

/** Runs `middleware` for `request` with `route` behind it; resolves to the response sent. */
export async function runMiddleware(
  middleware: MiddlewareHandler,
  request: Request,
  route: FakeRoute,
  options: { isPrerendered?: boolean } = {},
): Promise<{ response: Response; context: APIContext }> {
  const context = fakeContext(request, options);
  const response = await middleware(context, async () => route(context));
  if (!(response instanceof Response)) throw new Error('the middleware returned no Response');
  return { response, context };
}
