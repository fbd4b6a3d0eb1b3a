// GET / (a Route Handler) behind the no-op middleware: `noop` answers `ok`; `protected` is wrapped by the adapter's
// withAuth (the request scope, the kit's 401 for a refusal) and answers the signed-in user's id from requireAuth().
import { createAuthHelpers } from '@framework/next';
import { benchAuth, benchMode } from '../../bench-auth';

export const dynamic = 'force-dynamic';

function handler(): (request: Request) => Promise<Response> {
  if (benchMode() !== 'protected') return () => Promise.resolve(new Response('ok'));
  const { requireAuth, withAuth } = createAuthHelpers(benchAuth);
  return withAuth(async () => new Response((await requireAuth({ throwError: true })).id));
}

export const GET = handler();
