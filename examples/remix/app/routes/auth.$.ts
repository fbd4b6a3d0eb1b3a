// Every route under /auth: sign-in page, callbacks, session, sign-out, CSRF.
import type { Route } from './+types/auth.$';
import { authRoute } from '../example.server.js';

export function loader(args: Route.LoaderArgs) {
  return authRoute.loader(args);
}

export function action(args: Route.ActionArgs) {
  return authRoute.action(args);
}
