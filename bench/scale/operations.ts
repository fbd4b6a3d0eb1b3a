/**
 * The storage calls of request paths and operator pages, each as `(i) => promise` for a random seeded user
 * number `i` (1..n): session reads, sign-in lookups, the admin's user list and search, session and audit
 * listings, API-key and membership lookups, and the writes and purges that run on a schedule (marked `offPath`:
 * only the event-loop goal applies to them).
 * @module
 */
import type { Storages } from './databases.js';
import { SEEDED_AT } from './seed.js';

export interface Operation {
  name: string;
  /** One call for seeded user `i`. */
  run(i: number): Promise<unknown>;
  /** Calls per measurement (fewer for the ones that delete what they read). Default 300. */
  reps?: number;
  /** Whether one call runs before the measured ones (prepares statements, fills caches). Default true. */
  warmUp?: boolean;
  /**
   * Set for calls that run off request paths and operator pages (a schedule, a background refresh, a script):
   * why. Only the event-loop goal applies to them; their growth is printed but is not a miss.
   */
  offPath?: string;
  /** For calls that work through rows: how many a call handled. The time is then reported per 1 000 rows. */
  rowsOf?(result: unknown): number;
}

const email = (i: number) => `user${i}@example.com`;

export function operations(s: Storages, n: number): Operation[] {
  const { adapter } = s;
  const even = (i: number) => 2 * Math.max(1, Math.floor(i / 2));
  const tenth = (i: number) => 10 * Math.max(1, Math.floor(i / 10));
  return [
    { name: 'getSessionAndUser (every request)', run: (i) => adapter.getSessionAndUser(`s${i}a`) },
    { name: 'getSessionVersion (JWT revalidation)', run: (i) => adapter.getSessionVersion(`u${i}`) },
    {
      name: 'updateSessionExpiry (sliding session)',
      run: (i) => adapter.updateSessionExpiry(`s${i}a`, new Date(SEEDED_AT + 40 * 86_400_000), new Date()),
    },
    { name: 'getUserByEmail (password sign-in)', run: (i) => adapter.getUserByEmail(email(i)) },
    {
      name: 'getAccount (password sign-in)',
      run: (i) => adapter.getAccount({ provider: 'credentials', providerAccountId: email(i) }),
    },
    {
      name: 'getUserByAccount (OAuth sign-in)',
      run: (i) => adapter.getUserByAccount({ provider: 'github', providerAccountId: `gh${even(i)}` }),
    },
    { name: 'listAccounts (account page)', run: (i) => adapter.listAccounts(`u${i}`) },
    { name: 'listSessions (signed-in devices)', run: (i) => adapter.listSessions(`u${i}`) },
    { name: 'listAuthenticators (passkeys)', run: (i) => adapter.listAuthenticators(`u${tenth(i)}`) },
    { name: 'listUsers page 1 (admin)', run: () => adapter.listUsers!({ limit: 50 }) },
    { name: 'listUsers page at user i (admin)', run: (i) => adapter.listUsers!({ limit: 50, after: `u${i}` }) },
    {
      name: 'listUsers search by email prefix',
      run: (i) => adapter.listUsers!({ search: `user${String(i).slice(0, 3)}` }),
    },
    {
      name: 'listUsers search by name prefix',
      run: (i) => adapter.listUsers!({ search: `user ${String(i).slice(0, 3)}` }),
    },
    {
      name: 'admin getBans (one page of users)',
      run: (i) => s.admin.getBans(Array.from({ length: 50 }, (_, k) => `u${i + k}`)),
    },
    { name: 'countActiveSessions() (dashboard, kept a minute)', run: () => adapter.countActiveSessions!() },
    {
      name: 'countActiveSessions(now) (exact)',
      run: () => adapter.countActiveSessions!(new Date()),
      reps: 20,
      offPath: 'no page calls it; the dashboard’s figure re-reads it in the background once a minute',
    },
    { name: 'audit list newest (admin)', run: () => s.audit.list({ limit: 50 }) },
    { name: 'audit list by user', run: (i) => s.audit.list({ userId: `u${i}`, limit: 50 }) },
    { name: 'audit list by type', run: () => s.audit.list({ type: 'onUserBanned', limit: 50 }) },
    {
      name: 'audit list by time window',
      run: () => s.audit.list({ from: new Date(SEEDED_AT - 2 * 86_400_000), limit: 50 }),
    },
    {
      name: 'apiKeys.findByPrefix (API-key request)',
      run: (i) => s.apiKeys.findByPrefix(`pfx${Math.max(1, Math.floor(i / 10))}`),
    },
    { name: 'apiKeys.listByUser', run: (i) => s.apiKeys.listByUser(`u${tenth(i)}`) },
    { name: 'tenants.listMemberships (tenant switcher)', run: (i) => s.tenants.listMemberships(`u${i}`) },
    { name: 'tenants.list, a page of 5 (admin)', run: (i) => s.tenants.list({ limit: 5, after: `t${i}` }) },
    {
      name: 'tenants.listMembers, a page of 50 (members page)',
      run: (i) =>
        s.tenants.listMembers(`t${1 + (i % Math.max(1, Math.floor(n / 100)))}`, { limit: 50, after: `u${i}` }),
    },
    {
      name: 'tenants.getMember (tenant request)',
      run: (i) => s.tenants.getMember(`t${1 + (i % Math.max(1, Math.floor(n / 100)))}`, `u${i}`),
    },
    { name: 'invitations.listPendingByEmail', run: (i) => s.invitations.listPendingByEmail(email(i)) },
    { name: 'deleteUserSessions (sign out everywhere)', run: (i) => adapter.deleteUserSessions(`u${i}`), reps: 100 },
    // The scheduled purge as an app runs it (default pacing), for at most 200 ms, without a warm-up: 1 000 users
    // leave 2 100 expired sessions, so both sizes delete rows in several batches.
    {
      name: 'purgeExpired, default pacing (200 ms budget), per 1 000 rows',
      run: () => adapter.purgeExpired(new Date(), { budgetMs: 200 }),
      reps: 1,
      warmUp: false,
      offPath: 'a scheduled job',
      rowsOf: (result) => {
        const { sessions, verificationTokens } = result as { sessions: number; verificationTokens: number };
        return sessions + verificationTokens;
      },
    },
  ];
}
