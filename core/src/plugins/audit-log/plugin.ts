/**
 * `auditLog()`: every security event, written to append-only storage, listed at `GET /admin/audit`, and
 * optionally sent on as a trigger queue message.
 * @module
 */
import { AuthConfigError } from '../../errors.js';
import { authError } from '../../errors/auth-error.js';
import type { AuthEventName } from '../../events.js';
import type { RouteContext, AuthPlugin } from '../../contract/types.js';
import { requireAdmin, type AdminPolicy } from '../admin/access.js';
import { adapterStorage } from '../plugin-sql.js';
import { auditEntryOf } from './entry.js';
import { createMemoryAuditStorage } from './storage/memory.js';
import { createSqlAuditStorage } from './storage/sql.js';
import type { AuditEntry, AuditPage, AuditStorage } from './types.js';

/** Anything with a `send(body)`: a trigger runtime's `runtime.queue(name)`, or your own queue client. */
export interface AuditQueue {
  send(body: AuditEntry): Promise<unknown>;
}

/** Options of {@link auditLog}. */
export interface AuditLogOptions {
  /**
   * Where entries are written. Default: the auth adapter's own database (`createSqlAuditStorage(adapter.kysely)`,
   * created by `auth.migrate()`; in memory on the memory adapter).
   */
  storage?: AuditStorage;
  /** Which events to keep. Default: every `on*` event. */
  events?: readonly AuthEventName[];
  /** Also send each entry here (dates as ISO strings once serialized); a failed send is logged, never fatal. */
  queue?: AuditQueue;
  /** Who may read `GET /admin/audit`: as `admin()`'s options. Default role `admin`. */
  adminRoles?: readonly string[];
  permission?: string;
}

/** `auth.extensions.auditLog`. */
export interface AuditLogExtension {
  readonly storage: AuditStorage;
}

const invalid = (message: string) => authError('INVALID_REQUEST', message);

function parseTime(value: string | null, name: string): Date | undefined {
  if (value === null || value === '') return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw invalid(`\`${name}\` must be an ISO 8601 time`);
  return date;
}

/** `GET /admin/audit?userId=&type=&from=&to=&limit=&before=`. */
async function listAudit(ctx: RouteContext, storage: AuditStorage, policy: AdminPolicy) {
  const caller = await requireAdmin(ctx, policy);
  const p = ctx.url.searchParams;
  const limit = p.has('limit') ? Number(p.get('limit')) : undefined;
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 200))
    throw invalid('`limit` must be a whole number from 1 to 200');
  for (const key of ['userId', 'type', 'before'])
    if ((p.get(key)?.length ?? 0) > 255) throw invalid(`\`${key}\` is too long`);
  const from = parseTime(p.get('from'), 'from');
  const to = parseTime(p.get('to'), 'to');
  const page: AuditPage = await storage.list({
    ...(p.get('userId') ? { userId: p.get('userId')! } : {}),
    ...(p.get('type') ? { type: p.get('type')! } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(limit ? { limit } : {}),
    ...(p.get('before') ? { before: p.get('before')! } : {}),
  });
  return {
    status: 200,
    json: { entries: page.entries.map((e) => ({ ...e, at: e.at.toISOString() })), next: page.next },
    cookies: caller.cookies,
    headers: { 'cache-control': 'no-store' },
  };
}

/**
 * The audit log: every security event (sign-ins and their failures, sign-ups, sign-outs, password and email
 * changes, account deletion, two-factor changes, and every `admin()` action) appended to storage as an
 * {@link AuditEntry}: type, time, the user it is about, the actor (the admin for admin actions), IP, User-Agent,
 * request id, and the event's non-secret fields (never tokens or passwords). Built on the plugin `onEvent` hook,
 * after the app's own `events`. A failed write or send is logged by error name and never breaks the request.
 *
 * `GET {basePath}/admin/audit?userId=&type=&from=&to=&limit=&before=` lists entries newest first (`limit` 1–200,
 * default 50; `from`/`to` ISO times; `before` is the previous page's `next`), for admins only (`adminRoles`,
 * default `['admin']`, or `permission`): 401 `UNAUTHENTICATED`, 403 `FORBIDDEN`, 400 `INVALID_REQUEST` for bad
 * filters.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) without `storage`.
 * @example
 * ```ts
 * import { auditLog, createSqlAuditStorage } from '@framework/auth/plugins/audit-log';
 *
 * const auth = createAuth({
 *   ...config,
 *   plugins: [auditLog({ storage: createSqlAuditStorage(db), queue: runtime.queue('auth-audit') })],
 * });
 * await auth.migrate(); // creates audit_log
 * // GET /auth/admin/audit?userId=u_123&type=onSignInFailed
 * ```
 */
export function auditLog(options: AuditLogOptions = {}): AuthPlugin<'auditLog', AuditLogExtension> {
  if (!options || (options.storage !== undefined && typeof options.storage?.append !== 'function'))
    throw new AuthConfigError('Invalid auth config: auditLog() needs `storage` (createSqlAuditStorage(db))');
  const { queue } = options;
  const { storage, bind } = adapterStorage('auditLog()', options.storage, {
    sql: (db) => createSqlAuditStorage(db),
    memory: createMemoryAuditStorage,
  });
  const kept = options.events ? new Set<string>(options.events) : undefined;
  const policy: AdminPolicy = { adminRoles: options.adminRoles ?? ['admin'], permission: options.permission };
  let logger: { error(message: string): void } = console;
  return {
    id: 'auditLog',
    init(auth) {
      logger = auth.logger;
      bind(auth.adapter);
      return { storage };
    },
    routes: { 'admin/audit': { GET: (ctx) => listAudit(ctx, storage, policy) } },
    hooks: {
      async onEvent(event) {
        if (kept && !kept.has(event.type)) return;
        const entry = auditEntryOf(event);
        await storage.append(entry);
        if (queue) {
          try {
            await queue.send(entry);
          } catch (error) {
            logger.error(`[auth] auditLog queue send threw ${error instanceof Error ? error.name : typeof error}`);
          }
        }
      },
    },
    migrate: () => storage.migrate(),
  };
}
