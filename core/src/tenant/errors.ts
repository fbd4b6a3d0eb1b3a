/**
 * Errors of multi-tenancy.
 * @module
 */
import { AuthError } from '../errors.js';

/**
 * No tenant matches the request (`resolver.require`) or the id given
 * (`storage.addMember`). Code `TENANT_NOT_FOUND`, status 404. Its message
 * never echoes the request's value.
 */
export class TenantNotFoundError extends AuthError {
  static override readonly brand: string = '@framework/auth.TenantNotFoundError';
  constructor(message = 'Tenant not found') {
    super(message, { code: 'TENANT_NOT_FOUND', status: 404 });
    this.name = 'TenantNotFoundError';
  }
}

/**
 * A guarded membership change (`storage.removeMember(..., { keepOwner })`, `storage.addMember(..., { keepOwner })`)
 * was refused because it would leave the tenant with no member of the `keepOwner` role. Code `LAST_OWNER`, status
 * 409. Nothing was changed.
 */
export class LastOwnerError extends AuthError {
  static override readonly brand: string = '@framework/auth.LastOwnerError';
  constructor(message = 'An organization needs an owner: transfer ownership first') {
    super(message, { code: 'LAST_OWNER', status: 409 });
    this.name = 'LastOwnerError';
  }
}
