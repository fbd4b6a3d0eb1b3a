import { describe, expect, it } from 'vitest';
import { defineRBAC } from './define.js';
import { permissionRestrictions, restrictPermissions } from './restriction.js';

const rbac = defineRBAC({
  roles: [
    { id: 'admin', name: 'Admin', permissions: ['*'] },
    { id: 'editor', name: 'Editor', permissions: ['posts:*', 'comments:delete:own'] },
  ],
});
const admin = { id: 'u1', role: 'admin' };
const editor = { id: 'u2', role: 'editor' };

describe('restrictPermissions', () => {
  it('passes only what both the roles and the restriction grant', () => {
    const key = restrictPermissions(admin, ['posts:read']);
    expect(rbac.hasPermission(key, 'posts:read')).toBe(true);
    expect(rbac.hasPermission(key, 'posts:edit')).toBe(false);
    expect(rbac.hasPermission(key, '*')).toBe(false);
    expect(rbac.hasPermission(key, ['users:delete', 'posts:read'])).toBe(true);
    expect(rbac.hasPermission(key, ['users:delete', 'posts:edit'])).toBe(false);
    // The restriction never widens: an editor's key granting users:* still lacks users:delete.
    expect(rbac.hasPermission(restrictPermissions(editor, ['users:*', 'posts:*']), 'users:delete')).toBe(false);
  });

  it('an array check passes only for one permission both grant, not one from each', () => {
    const key = restrictPermissions(editor, ['users:list']);
    expect(rbac.hasPermission(key, ['users:list', 'posts:edit'])).toBe(false);
  });

  it('honours :own the same way on both sides', () => {
    const key = restrictPermissions(admin, ['comments:delete:own']);
    expect(rbac.hasPermission(key, 'comments:delete', { ownerId: 'u1' })).toBe(true);
    expect(rbac.hasPermission(key, 'comments:delete', { ownerId: 'someone' })).toBe(false);
    expect(
      rbac.hasPermission(restrictPermissions(editor, ['comments:*']), 'comments:delete', { ownerId: 'someone' }),
    ).toBe(false);
  });

  it('an empty restriction grants nothing; nesting keeps every list; copies keep it, JSON drops it', () => {
    expect(rbac.hasPermission(restrictPermissions(admin, []), 'posts:read')).toBe(false);
    const twice = restrictPermissions(restrictPermissions(admin, ['posts:*']), ['posts:read', 'users:list']);
    expect(permissionRestrictions(twice)).toHaveLength(2);
    expect(rbac.hasPermission(twice, 'posts:read')).toBe(true);
    expect(rbac.hasPermission(twice, 'users:list')).toBe(false);
    expect(rbac.hasPermission({ ...twice }, 'users:list')).toBe(false);
    expect(JSON.parse(JSON.stringify(twice))).toStrictEqual(admin);
    expect(rbac.hasPermission(admin, 'users:list')).toBe(true);
    expect(permissionRestrictions(null)).toStrictEqual([]);
  });
});
