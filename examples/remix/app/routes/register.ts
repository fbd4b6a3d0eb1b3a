// The registration page shared with the other examples (the same HTML and
// checks), as a resource route.
import type { Route } from './+types/register';
import { example } from '../example.server.js';

export const loader = ({ request }: Route.LoaderArgs) => example.registerForm(request);

export const action = ({ request }: Route.ActionArgs) => example.register(request);
