// The registration page shared with the other examples (the same HTML and
// checks), as a resource route.
import type { Route } from './+types/register';
import { contextIp, secureRoute } from '@framework/remix';
import { example } from '../example.server.js';

export const loader = secureRoute(({ request }: Route.LoaderArgs) => example.registerForm(request));

export const action = secureRoute((args: Route.ActionArgs) => example.register(args.request, { ip: contextIp(args) }));
