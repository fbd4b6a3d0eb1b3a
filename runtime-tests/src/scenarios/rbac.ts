/** RBAC from `defineRBAC`: roles, hierarchy, wildcards and ownership. */
import { defineRBAC } from '@framework/auth/convention';
import { same, type Scenario } from '../scenario.js';

export const rbacScenarios: Scenario[] = [
  {
    name: 'rbac: roles, hierarchy, wildcards and :own checks',
    async run() {
      const rbac = defineRBAC({
        roles: [
          { id: 'admin', name: 'Admin', permissions: ['*'] },
          { id: 'editor', name: 'Editor', permissions: ['posts:create', 'posts:edit:own'] },
          { id: 'viewer', name: 'Viewer', permissions: ['posts:read'] },
        ],
        hierarchy: { editor: ['viewer'] },
        defaultRole: 'viewer',
      });
      const editor = { id: 'u1', roles: ['editor'] };
      same(rbac.hasPermission(editor, 'posts:read'), true, 'inherited permission');
      same(rbac.hasPermission(editor, 'posts:edit', { ownerId: 'u1' }), true, 'own resource');
      same(rbac.hasPermission(editor, 'posts:edit', { ownerId: 'u2' }), false, "someone else's resource");
      same(rbac.hasPermission({ id: 'a', role: 'admin' }, 'billing:refund'), true, 'admin wildcard');
      same(rbac.hasPermission({ id: 'v' }, 'posts:create'), false, 'default role');
      same(rbac.hasRole(editor, ['admin', 'editor']), true, 'any of roles');
    },
  },
];
