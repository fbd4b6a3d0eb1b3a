/**
 * The data the Auth view shows, as small optional functions the app wires to
 * whatever keeps it (the admin and audit-log plugins, its own tables). Each
 * absent source is shown as "not configured".
 * @module
 */

/** One audit log entry. `at` is when it happened. */
export interface AuditEntry {
  at: Date;
  /** What happened, e.g. `signin`, `signin.failed`, `user.role.changed`. */
  action: string;
  /** Who did it (user id or email), when known. */
  actor?: string | null;
  /** Whom or what it concerned. */
  target?: string | null;
  outcome?: 'success' | 'failure';
  ip?: string | null;
  /** A short, already redacted note. */
  detail?: string | null;
}

/** Filters of the audit log view, from its form. `limit` is at most 200. */
export interface AuditFilter {
  limit: number;
  action?: string;
  actor?: string;
  outcome?: 'success' | 'failure';
}

/** One refused request of a rate limiter. */
export interface RateLimitRefusal {
  at: Date;
  /** The limiter's key (IP address or account), as the app chooses to show it. */
  key: string;
  /** Which limit, e.g. `signin`. */
  limit?: string;
}

/**
 * Optional data sources of the Auth view. Each is called per page view, so
 * keep it bounded (`limit`).
 * @example
 * ```ts
 * createDashboard({
 *   runtime,
 *   auth,
 *   authActivity: {
 *     activeSessions: () => countSessions(db),
 *     auditLog: (filter) => auditLog.list(filter),
 *   },
 * });
 * ```
 */
export interface AuthActivitySources {
  /** The number of unexpired sessions. */
  activeSessions?: () => Promise<number>;
  /** Audit entries, newest first, matching the filter. */
  auditLog?: (filter: AuditFilter) => Promise<AuditEntry[]>;
  /**
   * Recent sign-ins and failed sign-ins, newest first. Default: the audit log's `signin*` actions when
   * `auditLog` is given.
   */
  signIns?: (options: { limit: number }) => Promise<AuditEntry[]>;
  /** Recent rate-limit refusals, newest first. */
  rateLimitRefusals?: (options: { limit: number }) => Promise<RateLimitRefusal[]>;
}

/** Reads the audit filter from a query string; unknown or oversized values are dropped. */
export function auditFilterOf(params: URLSearchParams): AuditFilter {
  const text = (name: string) => {
    const value = params.get(name)?.trim();
    return value && value.length <= 100 ? value : undefined;
  };
  const outcome = params.get('outcome');
  const limit = Number(params.get('limit'));
  return {
    limit: Number.isInteger(limit) && limit > 0 ? Math.min(limit, 200) : 50,
    ...(text('action') ? { action: text('action')! } : {}),
    ...(text('actor') ? { actor: text('actor')! } : {}),
    ...(outcome === 'success' || outcome === 'failure' ? { outcome } : {}),
  };
}
