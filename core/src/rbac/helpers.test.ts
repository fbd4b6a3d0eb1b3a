import { describe, expect, it } from 'vitest';
import { createAuth } from '../auth.js';
import { AuthConfigError, ForbiddenError, UnauthenticatedError } from '../errors.js';
import type { AuthScope } from '../scope.js';
import type { User } from '../types.js';
import { defineRBAC } from './define.js';
import { hasPermission, hasRole, requirePermission, requireRole } from './helpers.js';

const rbac = defineRBAC({
  roles: [
    { id: 'admin', name: 'Admin', permissions: ['*'] },
    { id: 'editor', name: 'Editor', permissions: ['posts:edit', 'comments:delete:own'] },
    { id: 'viewer', name: 'Viewer', permissions: ['posts:read'] },
  ],
  hierarchy: { editor: ['viewer'] },
});

const auth = createAuth({
  session: { strategy: 'jwt' },
  secret: 'a-test-secret-of-at-least-32-characters!',
  providers: [],
});

/**
 * Runs `fn` in a real request scope. The user is placed on the scope directly
 * (no sign-in round trip); `rbac` is attached unless createAuth already did.
 */
function inScope<T>(user: User | null, fn: () => T, options: { withRbac?: boolean } = {}): Promise<T> {
  return auth.run(new Request('http://localhost/page'), (scope: AuthScope) => {
    scope.user = user;
    if (options.withRbac !== false) scope.extensions.rbac ??= rbac;
    else delete scope.extensions.rbac;
    return fn();
  });
}

const editor: User = { id: 'u1', email: 'ed@example.com', role: 'editor' };

describe('request-scoped RBAC helpers', () => {
  it('hasRole / hasPermission answer for the scope user', async () => {
    await inScope(editor, () => {
      expect(hasRole('editor')).toBe(true);
      expect(hasRole('viewer')).toBe(true);
      expect(hasRole('admin')).toBe(false);
      expect(hasRole(['admin', 'viewer'])).toBe(true);
      expect(hasPermission('posts:edit')).toBe(true);
      expect(hasPermission('posts:delete')).toBe(false);
      expect(hasPermission(['posts:delete', 'posts:read'])).toBe(true);
      expect(hasPermission('comments:delete', { ownerId: 'u1' })).toBe(true);
      expect(hasPermission('comments:delete', { ownerId: 'u2' })).toBe(false);
    });
  });

  it('signed out: has* are false, require* throw UnauthenticatedError (401)', async () => {
    await inScope(null, () => {
      expect(hasRole('viewer')).toBe(false);
      expect(hasPermission('posts:read')).toBe(false);
      for (const call of [() => requireRole('viewer'), () => requirePermission('posts:read')]) {
        expect(call).toThrow(UnauthenticatedError);
        try {
          call();
        } catch (e) {
          expect((e as UnauthenticatedError).status).toBe(401);
          expect((e as UnauthenticatedError).code).toBe('UNAUTHENTICATED');
        }
      }
    });
  });

  it('requireRole returns the user, or throws ForbiddenError carrying requiredRole', async () => {
    await inScope(editor, () => {
      expect(requireRole('viewer')).toBe(editor);
      expect(requireRole(['admin', 'editor'])).toBe(editor);
      const error = catchError(() => requireRole(['admin']));
      expect(error).toBeInstanceOf(ForbiddenError);
      expect(error).toMatchObject({
        code: 'FORBIDDEN',
        status: 403,
        requiredRole: ['admin'],
        message: 'Requires the role "admin"',
      });
      expect((error as ForbiddenError).requiredPermission).toBeUndefined();
    });
  });

  it('requirePermission returns the user, or throws ForbiddenError carrying requiredPermission', async () => {
    await inScope(editor, () => {
      expect(requirePermission('posts:read')).toBe(editor);
      expect(requirePermission('comments:delete', { userId: 'u1' })).toBe(editor);
      const error = catchError(() => requirePermission('users:delete'));
      expect(error).toMatchObject({ code: 'FORBIDDEN', status: 403, requiredPermission: 'users:delete' });
      expect(catchError(() => requirePermission(['a:b', 'c:d']))).toMatchObject({
        requiredPermission: ['a:b', 'c:d'],
        message: 'Requires the permission "a:b" or "c:d"',
      });
      expect(catchError(() => requirePermission('comments:delete', { ownerId: 'u2' }))).toBeInstanceOf(ForbiddenError);
    });
  });

  it('programming errors are loud: undefined role, malformed permission, no rbac, no scope', async () => {
    await inScope(editor, () => {
      expect(() => requireRole('admn')).toThrow(AuthConfigError);
      expect(() => hasPermission('posts')).toThrow(AuthConfigError);
    });
    await inScope(
      editor,
      () => {
        expect(() => hasRole('admin')).toThrow(/hasRole\(\) needs role definitions.*createAuth\(\{ rbac/);
        expect(() => requirePermission('posts:read')).toThrow(/requirePermission\(\) needs role definitions/);
      },
      { withRbac: false },
    );
    expect(() => hasRole('admin')).toThrow(/hasRole\(\) was called outside a request scope/);
  });
});

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}
