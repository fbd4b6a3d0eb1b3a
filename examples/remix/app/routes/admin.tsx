import type { Route } from './+types/admin';
import { ADMIN_ROLE, requireRole, withAuth } from '../example.server.js';

// Signed out: redirect to sign in. Signed in without the role: 403 (the root error boundary).
export const loader = withAuth(async ({ request }: Route.LoaderArgs) => {
  const admin = await requireRole(request, ADMIN_ROLE);
  return { email: admin.email, role: ADMIN_ROLE };
});

export const meta = () => [{ title: 'Admin' }];

export default function Admin({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <h1>Admin</h1>
      <p>
        Role: <strong id="role">{loaderData.role}</strong> ({loaderData.email})
      </p>
    </>
  );
}
