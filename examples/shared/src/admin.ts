/**
 * The examples' admin role: its id, the seeded admin account and the admin
 * page. The check itself is the kit's `requireRole(ADMIN_ROLE)` (or an
 * adapter's role guard), over the RBAC of ./authorization.ts.
 */
import type { ExampleAuth } from './example-auth.js';

/** The role that may see the admin page. */
export const ADMIN_ROLE = 'admin';

/** Creates the admin account when missing (or gives an existing account the admin role). */
export async function seedAdmin(
  example: ExampleAuth,
  admin: { email: string; password: string; name?: string },
): Promise<void> {
  const existing = await example.adapter.getUserByEmail(admin.email);
  const user =
    existing ??
    (await example.passwords.register({ email: admin.email, password: admin.password, name: admin.name ?? 'Admin' }));
  if (user.role !== ADMIN_ROLE) await example.adapter.updateUser(user.id, { role: ADMIN_ROLE });
}
