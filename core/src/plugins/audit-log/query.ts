/**
 * The shared parts of audit storages: query defaults and the page cursor (`<at ms>:<id>`, newest first).
 * @module
 * @internal
 */
import type { AuditEntry, AuditQuery } from './types.js';

/** A query with its defaults applied and its cursor decoded. */
export interface ResolvedAuditQuery {
  userId?: string;
  type?: string;
  from?: number;
  to?: number;
  limit: number;
  before?: { at: number; id: string };
}

/** Applies the defaults (limit 50, at most 200) and decodes `before`; a malformed cursor reads as none. */
export function resolveAuditQuery(q: AuditQuery): ResolvedAuditQuery {
  const limit = Math.min(200, Math.max(1, Math.floor(Number.isFinite(q.limit) ? q.limit! : 50)));
  const m = /^(\d{1,16}):(.{1,64})$/.exec(q.before ?? '');
  return {
    limit,
    ...(q.userId ? { userId: q.userId } : {}),
    ...(q.type ? { type: q.type } : {}),
    ...(q.from ? { from: q.from.getTime() } : {}),
    ...(q.to ? { to: q.to.getTime() } : {}),
    ...(m ? { before: { at: Number(m[1]), id: m[2]! } } : {}),
  };
}

/** The cursor that follows `entry`. */
export const cursorOf = (entry: AuditEntry): string => `${entry.at.getTime()}:${entry.id}`;

/** Newest first; ties by id, descending. */
export function newestFirst(a: AuditEntry, b: AuditEntry): number {
  const d = b.at.getTime() - a.at.getTime();
  return d !== 0 ? d : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
