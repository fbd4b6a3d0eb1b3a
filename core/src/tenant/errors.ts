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
