// Signed out: 401 with the kit's {error: {code, message}} for JSON clients.
import type { Route } from './+types/api.me';
import { secureRoute } from '@framework/remix';
import { requireUser, withAuth } from '../example.server.js';

export const loader = secureRoute(
  withAuth(async ({ request }: Route.LoaderArgs) => {
    const user = await requireUser(request, { throwError: true });
    return Response.json({ id: user.id, email: user.email ?? null, name: user.name ?? null, role: user.role ?? null });
  }),
);
