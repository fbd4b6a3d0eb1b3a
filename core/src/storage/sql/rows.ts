/**
 * Conversions between adapter records and table rows.
 * @module
 * @internal
 */
import type { AccountType } from '../../types.js';
import { definedEntries, normalizeEmail, toAccount } from '../records.js';
import type { AdapterAccount, AdapterSession, AdapterUser, Authenticator, VerificationToken } from '../types.js';
import type { DialectTraits } from './dialect.js';
import type { AccountRow, AuthenticatorRow, DbInt, SessionRow, UserRow, VerificationTokenRow } from './tables.js';

const toDate = (value: DbInt): Date => new Date(Number(value));
const toDateOrNull = (value: DbInt | null): Date | null => (value === null ? null : toDate(value));
const toMs = (date: Date | null | undefined): number | null => (date == null ? null : date.getTime());

/** The user columns a reader needs (everything but `email_normalized`). */
export const USER_COLUMNS = ['id', 'email', 'name', 'image', 'email_verified', 'role', 'roles'] as const;
export type UserColumns = Pick<UserRow, (typeof USER_COLUMNS)[number]>;

export function decodeUser(row: UserColumns): AdapterUser {
  // Built in canonical form directly (as toUser builds it): the session read of every request decodes a user.
  const user: AdapterUser = {
    id: row.id,
    email: row.email ?? null,
    name: row.name ?? null,
    image: row.image ?? null,
    emailVerified: toDateOrNull(row.email_verified),
  };
  if (row.role != null) user.role = row.role;
  if (row.roles != null) user.roles = [...(JSON.parse(row.roles) as string[])];
  return user;
}

/** Columns for the fields of `user` that `patch` defines (`undefined` = unchanged). */
export function encodeUserPatch(patch: Partial<Omit<AdapterUser, 'id'>>): Partial<UserRow> {
  const row: Partial<UserRow> = {};
  for (const [key, value] of definedEntries(patch)) {
    if (key === 'email') {
      row.email = patch.email ?? null;
      row.email_normalized = patch.email == null ? null : normalizeEmail(patch.email);
    } else if (key === 'emailVerified') row.email_verified = toMs(patch.emailVerified);
    else if (key === 'roles') row.roles = patch.roles == null ? null : JSON.stringify(patch.roles);
    else if (key === 'name' || key === 'image' || key === 'role') row[key] = (value as string | null) ?? null;
  }
  return row;
}

/** Every column of a new user row (`session_version` takes its default). */
export function encodeUser(user: AdapterUser): Omit<UserRow, 'session_version'> {
  return {
    id: user.id,
    email: null,
    email_normalized: null,
    name: null,
    image: null,
    email_verified: null,
    role: null,
    roles: null,
    ...encodeUserPatch(user),
  };
}

/** Record field → column, for the optional account fields. */
const ACCOUNT_COLUMNS = {
  access_token: 'access_token',
  refresh_token: 'refresh_token',
  expires_at: 'expires_at',
  token_type: 'token_type',
  scope: 'scope',
  id_token: 'id_token',
  passwordHash: 'password_hash',
} as const satisfies Record<string, keyof AccountRow>;

export function decodeAccount(row: AccountRow): AdapterAccount {
  return toAccount({
    provider: row.provider,
    providerAccountId: row.provider_account_id,
    userId: row.user_id,
    type: row.type as AccountType,
    access_token: row.access_token ?? undefined,
    refresh_token: row.refresh_token ?? undefined,
    expires_at: row.expires_at === null ? undefined : Number(row.expires_at),
    token_type: row.token_type ?? undefined,
    scope: row.scope ?? undefined,
    id_token: row.id_token ?? undefined,
    passwordHash: row.password_hash,
  });
}

/** Columns for the optional account fields that `patch` defines (`null` clears). */
export function encodeAccountPatch(patch: Partial<AdapterAccount>): Partial<AccountRow> {
  const row: Record<string, unknown> = {};
  for (const [key, value] of definedEntries(patch)) {
    if (Object.hasOwn(ACCOUNT_COLUMNS, key)) row[ACCOUNT_COLUMNS[key as keyof typeof ACCOUNT_COLUMNS]] = value ?? null;
  }
  return row as Partial<AccountRow>;
}

/** Every column of a new account row. */
export function encodeAccount(account: AdapterAccount): AccountRow {
  const nulls = Object.fromEntries(Object.values(ACCOUNT_COLUMNS).map((column) => [column, null]));
  return {
    ...(nulls as Pick<AccountRow, (typeof ACCOUNT_COLUMNS)[keyof typeof ACCOUNT_COLUMNS]>),
    ...encodeAccountPatch(account),
    provider: account.provider,
    provider_account_id: account.providerAccountId,
    user_id: account.userId,
    type: account.type,
  };
}

export function decodeSession(row: SessionRow): AdapterSession {
  // Built in canonical form directly (as toSession builds it): the session read of every request decodes one.
  const session: AdapterSession = {
    id: row.id,
    tokenHash: row.token_hash,
    userId: row.user_id,
    expires: toDate(row.expires),
    createdAt: toDate(row.created_at),
  };
  if (row.user_agent != null) session.userAgent = row.user_agent;
  if (row.ip != null) session.ip = row.ip;
  if (row.last_active_at != null) session.lastActiveAt = toDate(row.last_active_at);
  if (row.impersonated_by != null) session.impersonatedBy = row.impersonated_by;
  return session;
}

export function encodeSession(session: AdapterSession): SessionRow {
  return {
    id: session.id,
    token_hash: session.tokenHash,
    user_id: session.userId,
    expires: session.expires.getTime(),
    created_at: session.createdAt.getTime(),
    user_agent: session.userAgent ?? null,
    ip: session.ip ?? null,
    last_active_at: toMs(session.lastActiveAt),
    impersonated_by: session.impersonatedBy ?? null,
  };
}

export function decodeVerificationToken(row: VerificationTokenRow): VerificationToken {
  return { identifier: row.identifier, tokenHash: row.token_hash, expires: toDate(row.expires) };
}

export function encodeVerificationToken(token: VerificationToken): VerificationTokenRow {
  return { identifier: token.identifier, token_hash: token.tokenHash, expires: token.expires.getTime() };
}

export function decodeAuthenticator(row: AuthenticatorRow): Authenticator {
  return {
    credentialId: row.credential_id,
    userId: row.user_id,
    publicKey: row.public_key,
    counter: Number(row.counter),
    transports: JSON.parse(row.transports) as string[],
    deviceType: row.device_type as Authenticator['deviceType'],
    backedUp: Boolean(row.backed_up),
    name: row.name,
    createdAt: toDate(row.created_at),
  };
}

export function encodeAuthenticator(authenticator: Authenticator, traits: DialectTraits): AuthenticatorRow {
  return {
    credential_id: authenticator.credentialId,
    user_id: authenticator.userId,
    public_key: authenticator.publicKey,
    counter: authenticator.counter,
    transports: JSON.stringify(authenticator.transports),
    device_type: authenticator.deviceType,
    backed_up: traits.encodeBool(authenticator.backedUp) as number | boolean,
    name: authenticator.name ?? null,
    created_at: authenticator.createdAt.getTime(),
  };
}
