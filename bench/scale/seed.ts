/**
 * Seeds `n` users in the kit's own tables, with the rows that come with users in proportion: per user four
 * sessions (one live, one expired for every tenth user, two expired ones waiting for the purge), a password
 * account (an OAuth account for every other user), three audit entries and a membership; per ten users a
 * verification token (half expired), a passkey and an API key; per hundred users a tenant and an invitation; per
 * thousand a ban. Each table is filled by one `INSERT … SELECT` over a number series, not a million round trips.
 * @module
 */
import { sql } from 'kysely';
import type { Storages } from './databases.js';

/** The clock the seeded rows are relative to (ms). */
export const SEEDED_AT = Date.now();
const DAY = 86_400_000;

/** `count` rows of `table` from `select` over `i` = 1..count. */
async function fill(storages: Storages, table: string, columns: string, select: string, count: number) {
  if (count < 1) return;
  const series =
    storages.dialect === 'sqlite'
      ? `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count}) insert into ${table} (${columns}) select ${select} from n`
      : `insert into ${table} (${columns}) select ${select} from generate_series(1, ${count}) as n(i)`;
  await sql.raw(series).execute(storages.db);
}

/** Seeds `n` users (see the module comment). */
export async function seed(storages: Storages, n: number): Promise<void> {
  const now = SEEDED_AT;
  const future = now + 30 * DAY;
  const past = now - DAY;
  const yes = storages.dialect === 'sqlite' ? '1' : 'true';
  const tenants = Math.max(1, Math.floor(n / 100));
  await fill(
    storages,
    'auth_users',
    'id, email, email_normalized, name, session_version',
    `'u' || i, 'user' || i || '@example.com', 'user' || i || '@example.com', 'User ' || i, 0`,
    n,
  );
  await fill(
    storages,
    'auth_accounts',
    'provider, provider_account_id, user_id, type, password_hash',
    `'credentials', 'user' || i || '@example.com', 'u' || i, 'credentials', '$argon2id$seeded'`,
    n,
  );
  await fill(
    storages,
    'auth_accounts',
    'provider, provider_account_id, user_id, type',
    `'github', 'gh' || (2 * i), 'u' || (2 * i), 'oauth'`,
    Math.floor(n / 2),
  );
  // One live session, one expired for every tenth user, and two expired ones waiting for the purge.
  for (const [suffix, expired] of [
    ['a', 'false'],
    ['b', 'i % 10 = 0'],
    ['c', 'true'],
    ['d', 'true'],
  ] as const) {
    const expires = expired === 'false' ? `${future}` : `case when ${expired} then ${past} else ${future} end`;
    await fill(
      storages,
      'auth_sessions',
      'id, token_hash, user_id, expires, created_at, last_active_at',
      `'s' || i || '${suffix}', 'h' || i || '${suffix}', 'u' || i, ${expires}, ${now - DAY}, ${now}`,
      n,
    );
  }
  await fill(
    storages,
    'auth_verification_tokens',
    'identifier, token_hash, expires',
    `'user' || (10 * i) || '@example.com', 't' || i, case when i % 2 = 0 then ${past} else ${future} end`,
    Math.floor(n / 10),
  );
  await fill(
    storages,
    'auth_authenticators',
    'credential_id, user_id, public_key, counter, transports, device_type, backed_up, created_at',
    `'c' || i, 'u' || (10 * i), 'pk', 0, '[]', 'multiDevice', ${yes}, ${now}`,
    Math.floor(n / 10),
  );
  const types = `case i % 5 when 0 then 'onSignIn' when 1 then 'onSignOut' when 2 then 'onSessionRevoked' when 3 then 'onPasswordChanged' else 'onUserBanned' end`;
  for (const k of [0, 1, 2])
    await fill(
      storages,
      'audit_log',
      'id, type, at, user_id, actor_id, request_id, data',
      `'e' || i || '-${k}', ${types}, ${now - 3 * DAY} + i * 7 + ${k}, 'u' || i, 'u' || i, 'r' || i, '{}'`,
      n,
    );
  await fill(
    storages,
    'api_keys',
    'id, prefix, secret_hash, user_id, name, created_at',
    `'k' || i, 'pfx' || i, 'secret', 'u' || (10 * i), 'key', ${now}`,
    Math.floor(n / 10),
  );
  await fill(
    storages,
    'tenants',
    'id, slug, name, created_at, updated_at',
    `'t' || i, 'tenant-' || i, 'Tenant ' || i, ${now}, ${now}`,
    tenants,
  );
  await fill(
    storages,
    'tenants_members',
    'tenant_id, user_id, role, created_at',
    `'t' || (1 + i % ${tenants}), 'u' || i, 'member', ${now}`,
    n,
  );
  await fill(
    storages,
    'admin_bans',
    'user_id, reason, banned_by, created_at',
    `'u' || (1000 * i), 'spam', 'u1', ${now}`,
    Math.floor(n / 1000),
  );
  await fill(
    storages,
    'org_invitations',
    'id, organization_id, email, role, inviter_id, token_hash, status, expires_at, created_at, sent_at',
    `'i' || i, 't' || (1 + i % ${tenants}), 'user' || (100 * i) || '@example.com', 'member', 'u1', 'ih' || i, 'pending', ${future}, ${now}, ${now}`,
    Math.floor(n / 100),
  );
}
