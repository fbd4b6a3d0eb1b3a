// GET / (a resource route): behind React Router's own no-op middleware in both modes; `noop` answers `ok`,
// `protected` the signed-in user's id through the adapter's requireUser (the kit's 401 when signed out).
import type { MiddlewareFunction } from 'react-router';
import { createAuthHelpers } from '@framework/remix';
import { benchAuth, benchMode } from '../../../bench-auth';

const noop: MiddlewareFunction<Response> = (_args, next) => next();
export const middleware = [noop];

const requireUser = benchMode() === 'protected' ? createAuthHelpers(benchAuth()).requireUser : undefined;

export async function loader({ request }: { request: Request }): Promise<Response> {
  if (!requireUser) return new Response('ok');
  return new Response((await requireUser(request, { throwError: true })).id);
}
