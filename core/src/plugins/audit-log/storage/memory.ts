/**
 * `createMemoryAuditStorage`: the audit log in process memory, for tests and single-process demos.
 * @module
 */
import { cursorOf, newestFirst, resolveAuditQuery } from '../query.js';
import type { AuditEntry, AuditStorage } from '../types.js';

const copy = (e: AuditEntry): AuditEntry => ({ ...e, at: new Date(e.at.getTime()), data: { ...e.data } });

/**
 * An {@link AuditStorage} in an array: lost on restart, so use `createSqlAuditStorage` in production.
 * @example
 * ```ts
 * import { auditLog, createMemoryAuditStorage } from '@framework/auth/plugins/audit-log';
 * createAuth({ ...config, plugins: [auditLog({ storage: createMemoryAuditStorage() })] });
 * ```
 */
export function createMemoryAuditStorage(): AuditStorage {
  let entries: AuditEntry[] = [];
  return {
    async migrate() {},
    async append(entry) {
      entries.push(copy(entry));
    },
    async list(query) {
      const q = resolveAuditQuery(query);
      const matches = entries
        .filter(
          (e) =>
            (q.userId === undefined || e.userId === q.userId) &&
            (q.type === undefined || e.type === q.type) &&
            (q.from === undefined || e.at.getTime() >= q.from) &&
            (q.to === undefined || e.at.getTime() < q.to) &&
            (q.before === undefined ||
              e.at.getTime() < q.before.at ||
              (e.at.getTime() === q.before.at && e.id < q.before.id)),
        )
        .sort(newestFirst)
        .slice(0, q.limit + 1);
      const page = matches.slice(0, q.limit).map(copy);
      return { entries: page, next: matches.length > q.limit ? cursorOf(page[page.length - 1]!) : null };
    },
    async purge(before) {
      const kept = entries.filter((e) => e.at >= before);
      const removed = entries.length - kept.length;
      entries = kept;
      return removed;
    },
  };
}
