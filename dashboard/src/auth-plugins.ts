/**
 * The Auth view's sources read from the auth instance itself: the active-session count from its storage adapter
 * (`countActiveSessions`), this process's rate-limit refusals (`auth.rateLimitRefusals`), and the audit log, sign-ins and failures from the `auditLog()` plugin's storage. Used when
 * `createDashboard({ auth })` gets no `authActivity`; a source the app passes wins.
 * @module
 */
import type { Auth } from '@framework/auth';
import type { AuthActivitySources, AuditEntry, AuditFilter } from './auth-activity.js';

/** One stored audit entry, as `@framework/auth/plugins/audit-log` keeps it (only the fields shown). */
interface StoredEntry {
  type: string;
  at: Date;
  userId: string | null;
  actorId: string | null;
  ip: string | null;
  data: Record<string, string | number | boolean | null>;
}
interface AuditReader {
  list(query: { userId?: string; type?: string; limit?: number }): Promise<{ entries: StoredEntry[] }>;
}

const FAILURES = new Set(['onSignInFailed']);
const SUCCESSES = new Set(['onSignIn', 'onSignUp']);

/** A stored entry as the view shows it: `action` is the event name (`onSignIn`, `onUserBanned`, …). */
export function toViewEntry(e: StoredEntry): AuditEntry {
  const detail = Object.entries(e.data)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ')
    .slice(0, 200);
  return {
    at: e.at,
    action: e.type,
    actor: e.actorId,
    target: e.userId !== e.actorId ? e.userId : null,
    ...(FAILURES.has(e.type)
      ? { outcome: 'failure' as const }
      : SUCCESSES.has(e.type)
        ? { outcome: 'success' as const }
        : {}),
    ip: e.ip,
    detail: detail || null,
  };
}

/**
 * The sources an auth instance can give: `activeSessions` when its adapter counts sessions, `auditLog` and
 * `signIns` when the `auditLog()` plugin is installed. The filter's `action` is an event name, `actor` a user id
 * the entries are about.
 */
export function authActivityOf(
  auth: Partial<Pick<Auth, 'adapter' | 'extensions' | 'rateLimitRefusals'>>,
): AuthActivitySources {
  const adapter = auth.adapter;
  const audit = (auth.extensions as Record<string, { storage?: AuditReader } | undefined> | undefined)?.auditLog
    ?.storage;
  const sources: AuthActivitySources = {};
  if (adapter?.countActiveSessions) sources.activeSessions = () => adapter.countActiveSessions!();
  const refusals = auth.rateLimitRefusals;
  if (typeof refusals === 'function') sources.rateLimitRefusals = async ({ limit }) => refusals(limit);
  if (audit) {
    sources.auditLog = async (filter: AuditFilter) => {
      const { entries } = await audit.list({
        limit: filter.limit,
        ...(filter.action ? { type: filter.action } : {}),
        ...(filter.actor ? { userId: filter.actor } : {}),
      });
      return entries.map(toViewEntry).filter((e) => !filter.outcome || e.outcome === filter.outcome);
    };
    sources.signIns = async ({ limit }) => {
      const [ok, failed] = await Promise.all(
        ['onSignIn', 'onSignInFailed'].map(async (type) => (await audit.list({ type, limit })).entries),
      );
      return [...ok!, ...failed!]
        .sort((a, b) => b.at.getTime() - a.at.getTime())
        .slice(0, limit)
        .map(toViewEntry);
    };
  }
  return sources;
}
