/**
 * Record normalization shared by every adapter, so that all of them return
 * exactly the same shapes: nullable fields filled with `null`, optional fields
 * dropped when absent or `null`, unknown keys ignored, arrays and Dates copied.
 * @module
 * @internal
 */
import type {
  AdapterAccount,
  AdapterSession,
  AdapterUser,
  Authenticator,
  ListUsersQuery,
  VerificationToken,
} from './types.js';

/** The token fields of an account: optional, dropped when absent or null. */
export const ACCOUNT_TOKEN_FIELDS = [
  'access_token',
  'refresh_token',
  'expires_at',
  'token_type',
  'scope',
  'id_token',
  'passwordHash',
] as const;

/** The key emails are matched by. */
export function normalizeEmail(email: string): string {
  return email.toLowerCase();
}

/** A {@link ListUsersQuery} with its defaults applied: `search` lower-cased (or absent), `limit` in 1–100. */
export function resolveListUsersQuery(query: ListUsersQuery): { search?: string; limit: number; after?: string } {
  const limit = Math.min(100, Math.max(1, Math.floor(Number.isFinite(query.limit) ? query.limit! : 20)));
  const search = query.search?.trim().toLowerCase();
  return { limit, ...(search ? { search } : {}), ...(query.after ? { after: query.after } : {}) };
}

/** A copy of `date`, or null. */
function copyDate(date: Date | null | undefined): Date | null {
  return date == null ? null : new Date(date.getTime());
}

/** Keys of `patch` whose value is not `undefined` (those are "unchanged"). */
export function definedEntries<T extends object>(patch: T): [keyof T & string, unknown][] {
  return Object.entries(patch).filter(([, value]) => value !== undefined) as [keyof T & string, unknown][];
}

/** A user in canonical form, built from any partial user and its id. */
export function toUser(id: string, input: Partial<AdapterUser>): AdapterUser {
  const user: AdapterUser = {
    id,
    email: input.email ?? null,
    name: input.name ?? null,
    image: input.image ?? null,
    emailVerified: copyDate(input.emailVerified),
  };
  if (input.role != null) user.role = input.role;
  if (input.roles != null) user.roles = [...input.roles];
  return user;
}

/** An account in canonical form. */
export function toAccount(input: AdapterAccount): AdapterAccount {
  const account: AdapterAccount = {
    provider: input.provider,
    providerAccountId: input.providerAccountId,
    type: input.type,
    userId: input.userId,
  };
  for (const field of ACCOUNT_TOKEN_FIELDS) {
    const value = input[field];
    if (value != null) (account as unknown as Record<string, unknown>)[field] = value;
  }
  return account;
}

/** A session in canonical form; the metadata fields are dropped when absent or null. */
export function toSession(input: AdapterSession): AdapterSession {
  const session: AdapterSession = {
    id: input.id,
    tokenHash: input.tokenHash,
    userId: input.userId,
    expires: new Date(input.expires.getTime()),
    createdAt: new Date(input.createdAt.getTime()),
  };
  if (input.userAgent != null) session.userAgent = input.userAgent;
  if (input.ip != null) session.ip = input.ip;
  if (input.lastActiveAt != null) session.lastActiveAt = new Date(input.lastActiveAt.getTime());
  if (input.impersonatedBy != null) session.impersonatedBy = input.impersonatedBy;
  return session;
}

/** A verification token in canonical form. */
export function toVerificationToken(input: VerificationToken): VerificationToken {
  return {
    identifier: input.identifier,
    tokenHash: input.tokenHash,
    expires: new Date(input.expires.getTime()),
  };
}

/** An authenticator in canonical form. */
export function toAuthenticator(input: Authenticator): Authenticator {
  return {
    credentialId: input.credentialId,
    userId: input.userId,
    publicKey: input.publicKey,
    counter: input.counter,
    transports: [...input.transports],
    deviceType: input.deviceType,
    backedUp: input.backedUp,
    name: input.name ?? null,
    createdAt: new Date(input.createdAt.getTime()),
  };
}
