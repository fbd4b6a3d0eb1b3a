import { describe, expect, it, vi } from 'vitest';
import { AuthError, AuthRedirect, ForbiddenError, UnauthenticatedError } from './errors.js';
import { StorageConflictError } from './storage/types.js';
import { getUser, runInScope, type AuthScope } from './scope.js';

/** A second, independent copy of the modules, as a nested install or the other build format would load. */
async function secondCopy() {
  vi.resetModules();
  const errors = await import('./errors.js');
  const storage = await import('./storage/types.js');
  const scope = await import('./scope.js');
  return { ...errors, ...storage, ...scope };
}

describe('one identity across copies of the package', () => {
  it('a second copy really is a different class', async () => {
    const other = await secondCopy();
    expect(other.AuthError).not.toBe(AuthError);
  });

  it('instanceof holds across copies, per class and for its ancestors', async () => {
    const other = await secondCopy();
    const forbidden = new other.ForbiddenError('no');
    expect(forbidden instanceof ForbiddenError).toBe(true);
    expect(forbidden instanceof AuthError).toBe(true);
    expect(forbidden instanceof Error).toBe(true);
    expect(forbidden instanceof UnauthenticatedError).toBe(false);
    expect(new ForbiddenError() instanceof other.AuthError).toBe(true);
    expect(new other.AuthRedirect('/x') instanceof AuthRedirect).toBe(true);
    expect(new other.AuthRedirect('/x') instanceof AuthError).toBe(false);
    expect(new other.StorageConflictError('taken', 'email') instanceof StorageConflictError).toBe(true);
  });

  it('plain objects and look-alikes are not branded', () => {
    expect({ code: 'FORBIDDEN', status: 403 } instanceof AuthError).toBe(false);
    expect(Object.assign(new Error('x'), { name: 'AuthError' }) instanceof AuthError).toBe(false);
    expect((null as unknown) instanceof AuthError).toBe(false);
    expect(('AuthError' as unknown) instanceof AuthError).toBe(false);
  });

  it('a user subclass without its own brand matches only through its prototype chain', () => {
    class AppError extends AuthError {}
    expect(new AppError('x', { code: 'FORBIDDEN' }) instanceof AppError).toBe(true);
    expect(new AppError('x', { code: 'FORBIDDEN' }) instanceof AuthError).toBe(true);
    expect(new AuthError('x', { code: 'FORBIDDEN' }) instanceof AppError).toBe(false);
    expect(new ForbiddenError() instanceof AppError).toBe(false);
  });

  it('the request scope opened by one copy is read by another', async () => {
    const other = await secondCopy();
    const scope = { user: { id: 'u1', email: 'a@example.com' }, session: null } as unknown as AuthScope;
    expect(runInScope(scope, () => other.getUser())).toEqual({ id: 'u1', email: 'a@example.com' });
    expect(other.runInScope(scope, () => getUser())?.id).toBe('u1');
  });
});
