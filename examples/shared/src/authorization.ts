/**
 * The examples' roles (admin, editor ⊃ viewer), given to `createAuth({ rbac })`
 * by {@link createExampleAuth} in ./example-auth.ts. The Hono example's
 * routes that demonstrate them are in examples/hono/src/authorization.ts.
 */
import { defineRBAC } from '@framework/auth/convention';

/** The demo's roles. Pass it to `createAuth({ rbac })`. New users get `viewer`. */
export const rbac = defineRBAC({
  roles: [
    { id: 'admin', name: 'Administrator', permissions: ['*'], description: 'Everything, including the admin page' },
    {
      id: 'editor',
      name: 'Editor',
      permissions: ['posts:create', 'posts:edit', 'posts:delete:own'],
      description: 'Writes posts; inherits viewer',
    },
    { id: 'viewer', name: 'Viewer', permissions: ['posts:read'], description: 'Reads posts' },
  ],
  defaultRole: 'viewer',
  hierarchy: { editor: ['viewer'] },
});
