/**
 * Turns an auth event into an {@link AuditEntry}: ids instead of user objects, a provider instead of an account
 * (never its tokens), and only primitive, non-secret fields kept.
 * @module
 * @internal
 */
import type { AnyAuthEvent } from '../../events.js';
import type { AuditEntry } from './types.js';

/** Fields of an event that are stored as they are (strings, numbers, booleans, null, or dates as ISO strings). */
const KEPT = [
  'provider',
  'identifier',
  'reason',
  'email',
  'from',
  'to',
  'role',
  'isNewUser',
  'everywhere',
  'otherSessionsRevoked',
  'revoked',
  'expires',
  'expiresAt',
] as const;

const idOf = (value: unknown): string | null =>
  value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string'
    ? (value as { id: string }).id
    : null;

/** The audit entry of `event`. */
export function auditEntryOf(event: AnyAuthEvent): AuditEntry {
  const fields = event as unknown as Record<string, unknown>;
  const data: AuditEntry['data'] = {};
  const account = fields.account as { provider?: unknown } | null | undefined;
  if (account && typeof account.provider === 'string') data.provider = account.provider;
  for (const key of KEPT) {
    const value = fields[key];
    if (value instanceof Date) data[key] = value.toISOString();
    else if (value === null || ['string', 'number', 'boolean'].includes(typeof value))
      data[key] = value as string | number | boolean | null;
  }
  const organizationId = idOf(fields.organization);
  if (organizationId) data.organizationId = organizationId;
  const userId = idOf(fields.user);
  const adminId = idOf(fields.admin) ?? idOf(fields.actor);
  return {
    id: crypto.randomUUID(),
    type: event.type,
    at: event.at,
    userId,
    actorId: adminId ?? userId,
    ip: event.ip,
    userAgent: event.userAgent,
    requestId: event.requestId,
    data,
  };
}
