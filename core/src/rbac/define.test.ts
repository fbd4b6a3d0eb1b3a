import { describe, expect, it } from 'vitest';
import { AuthConfigError } from '../errors.js';
import { defineRBAC } from './define.js';
import type { RBACConfig } from './types.js';

const blog: RBACConfig = {
  roles: [
    { id: 'admin', name: 'Administrator', permissions: ['*'] },
    { id: 'editor', name: 'Editor', permissions: ['posts:*', 'comments:delete:own'] },
    { id: 'author', name: 'Author', permissions: ['posts:edit:own'] },
    { id: 'viewer', name: 'Viewer', permissions: ['posts:read', 'comments:read'] },
  ],
  defaultRole: 'viewer',
  hierarchy: { editor: ['author'], author: ['viewer'] },
};

function rejects(config: unknown, message: RegExp | string): void {
  let caught: unknown;
  try {
    defineRBAC(config as RBACConfig);
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(AuthConfigError);
  expect((caught as AuthConfigError).code).toBe('INVALID_CONFIG');
  if (typeof message === 'string') expect((caught as Error).message).toContain(message);
  else expect((caught as Error).message).toMatch(message);
}

describe('defineRBAC: definition-time errors', () => {
  const role = (id: string, permissions: string[] = []) => ({ id, name: id, permissions });

  it('names the path of a cycle', () => {
    rejects(
      { roles: [role('a'), role('b'), role('c')], hierarchy: { a: ['b'], b: ['c'], c: ['a'] } },
      /cycle: "a" → "b" → "c" → "a"/,
    );
  });
  it('rejects a role that inherits itself', () => {
    rejects({ roles: [role('a')], hierarchy: { a: ['a'] } }, /cycle: "a" → "a"/);
  });
  it('rejects an unknown role as a hierarchy key or parent', () => {
    rejects(
      { roles: [role('a')], hierarchy: { ghost: ['a'] } },
      /hierarchy names an unknown role "ghost" \(defined: "a"\)/,
    );
    rejects({ roles: [role('a')], hierarchy: { a: ['ghost'] } }, /hierarchy\["a"\] names an unknown role "ghost"/);
    rejects({ roles: [role('a')], hierarchy: { a: 'b' } }, /hierarchy\["a"\] must be an array/);
    rejects({ roles: [role('a')], hierarchy: [] }, /`hierarchy` must be an object/);
  });
  it('rejects an unknown defaultRole', () => {
    rejects({ roles: [role('a')], defaultRole: 'b' }, /defaultRole names an unknown role "b"/);
  });
  it('rejects a duplicate role id', () => {
    rejects({ roles: [role('a'), role('b'), role('a')] }, /duplicate role id "a"/);
  });
  it.each([
    '',
    'posts',
    'posts:',
    ':read',
    'posts:read:mine',
    '*:read',
    'posts:*:own',
    'posts read',
    'po$ts:read',
    '**',
    'a..b:read',
    'posts:read:own:own',
  ])('rejects the malformed permission %j', (permission) => {
    rejects(
      { roles: [role('a', [permission])] },
      `role "a" has a malformed permission ${JSON.stringify(permission)} (expected`,
    );
  });
  it('rejects a non-string permission and malformed roles', () => {
    rejects({ roles: [role('a', [42 as never])] }, /malformed permission 42/);
    rejects({ roles: 'admin' }, /`roles` must be an array/);
    rejects({ roles: [null] }, /roles\[0\] must be an object/);
    rejects({ roles: [{ id: 'has space', name: 'x', permissions: [] }] }, /roles\[0\]\.id must be a non-empty string/);
    rejects({ roles: [{ id: 'a', permissions: [] }] }, /role "a" needs a string name/);
    rejects({ roles: [{ id: 'a', name: 'A' }] }, /role "a" needs a permissions array/);
    rejects(null, /defineRBAC needs/);
  });
  it('accepts every well-formed pattern', () => {
    const rbac = defineRBAC({
      roles: [role('a', ['*', 'posts:*', 'posts:read', 'posts:edit:own', 'billing.invoices:pay', 'x_y-z:a-b'])],
    });
    expect(rbac.permissionsOf('a')).toHaveLength(6);
  });
});

describe('defineRBAC: checks', () => {
  const rbac = defineRBAC(blog);
  const editor = { id: 'u-ed', role: 'editor' };
  const author = { id: 'u-au', roles: ['author'] };

  it('permissionsOf returns the full inherited set, sorted', () => {
    expect(rbac.permissionsOf('editor')).toStrictEqual([
      'comments:delete:own',
      'comments:read',
      'posts:*',
      'posts:edit:own',
      'posts:read',
    ]);
    expect(rbac.permissionsOf('viewer')).toStrictEqual(['comments:read', 'posts:read']);
    expect(() => rbac.permissionsOf('ghost')).toThrow(AuthConfigError);
  });

  it('resource:* covers every action on that resource only', () => {
    expect(rbac.hasPermission(editor, 'posts:publish')).toBe(true);
    expect(rbac.hasPermission(editor, 'posts:*')).toBe(true);
    expect(rbac.hasPermission(editor, 'postsx:publish')).toBe(false);
    expect(rbac.hasPermission(editor, 'users:read')).toBe(false);
    expect(rbac.hasPermission(editor, '*')).toBe(false);
    expect(rbac.hasPermission({ id: 'root', role: 'admin' }, '*')).toBe(true);
  });

  it(':own grants apply only to resources the user owns (ownerId, else userId)', () => {
    expect(rbac.hasPermission(author, 'posts:edit', { ownerId: 'u-au' })).toBe(true);
    expect(rbac.hasPermission(author, 'posts:edit', { userId: 'u-au' })).toBe(true);
    expect(rbac.hasPermission(author, 'posts:edit', { ownerId: 'someone', userId: 'u-au' })).toBe(false);
    expect(rbac.hasPermission(author, 'posts:edit', { ownerId: null, userId: 'u-au' })).toBe(true);
    expect(rbac.hasPermission(author, 'posts:edit', { ownerId: 'someone' })).toBe(false);
    expect(rbac.hasPermission(author, 'posts:edit', {})).toBe(false);
    expect(rbac.hasPermission(author, 'posts:edit')).toBe(false);
    expect(rbac.hasPermission(author, 'posts:edit:own')).toBe(true);
    expect(rbac.hasPermission(author, 'posts:edit:own', { ownerId: 'someone' })).toBe(false);
    expect(rbac.hasPermission({ id: '', role: 'author' }, 'posts:edit', { ownerId: '' })).toBe(false);
  });

  it('a plain grant satisfies the :own form', () => {
    expect(rbac.hasPermission(editor, 'posts:edit:own')).toBe(true);
    expect(rbac.hasPermission(editor, 'posts:edit:own', { ownerId: 'someone' })).toBe(true);
    expect(rbac.hasPermission({ id: 'v', role: 'viewer' }, 'posts:read:own', { ownerId: 'x' })).toBe(true);
  });

  it('an array of permissions means any of them', () => {
    expect(rbac.hasPermission(author, ['users:delete', 'posts:read'])).toBe(true);
    expect(rbac.hasPermission(author, ['users:delete', 'posts:delete'])).toBe(false);
    expect(rbac.hasPermission(author, [])).toBe(false);
  });

  it('roles come from roles, else role, else defaultRole; undefined ids grant nothing', () => {
    expect(rbac.rolesOf({ id: '1', roles: ['editor', 'admin'], role: 'viewer' })).toStrictEqual(['editor', 'admin']);
    expect(rbac.rolesOf({ id: '1', roles: [], role: 'author' })).toStrictEqual(['author']);
    expect(rbac.rolesOf({ id: '1' })).toStrictEqual(['viewer']);
    expect(rbac.rolesOf({ id: '1', role: 'ghost' })).toStrictEqual([]);
    expect(rbac.rolesOf(null)).toStrictEqual([]);
    expect(rbac.hasPermission({ id: '1' }, 'posts:read')).toBe(true);
    expect(rbac.hasPermission({ id: '1', role: 'ghost' }, 'posts:read')).toBe(false);
    expect(defineRBAC({ roles: blog.roles }).rolesOf({ id: '1' })).toStrictEqual([]);
  });

  it('hasRole follows the hierarchy; an array means any', () => {
    expect(rbac.hasRole(editor, 'editor')).toBe(true);
    expect(rbac.hasRole(editor, 'viewer')).toBe(true);
    expect(rbac.hasRole(editor, 'admin')).toBe(false);
    expect(rbac.hasRole({ id: 'v', role: 'viewer' }, 'editor')).toBe(false);
    expect(rbac.hasRole(author, ['admin', 'author'])).toBe(true);
    expect(rbac.hasRole(author, [])).toBe(false);
    expect(rbac.hasRole({ id: 'anon' }, 'viewer')).toBe(true);
    expect(rbac.hasRole(null, 'viewer')).toBe(false);
  });

  it('a check naming an undefined role or a malformed permission throws', () => {
    expect(() => rbac.hasRole(editor, 'admn')).toThrow(/unknown role "admn"/);
    expect(() => rbac.hasPermission(editor, 'posts')).toThrow(AuthConfigError);
    expect(() => rbac.hasPermission(null, 'posts')).toThrow(/Malformed permission "posts"/);
  });

  it('is frozen and unaffected by later changes to the config', () => {
    const roles = [{ id: 'a', name: 'A', permissions: ['x:read'] }];
    const made = defineRBAC({ roles });
    roles[0]!.permissions.push('*');
    expect(made.permissionsOf('a')).toStrictEqual(['x:read']);
    expect(Object.isFrozen(made)).toBe(true);
    expect(Object.isFrozen(made.roles.get('a'))).toBe(true);
  });
});
