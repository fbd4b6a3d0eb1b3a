/**
 * Serves the example Worker through Miniflare (workerd): bundles
 * `src/worker.ts` and binds a D1 database and the two secrets.
 * @module
 */
import { Miniflare } from 'miniflare';
import { fileURLToPath } from 'node:url';
import { bundleWorker, WORKERD_COMPAT } from '../../../runtime-tests/src/workerd/bundle.js';
import { EVENTS_TABLE } from './triggers.js';

/** Options of {@link serveWorker}. */
export interface ServeOptions {
  /** TCP port; 0 picks a free one. Default 8787. */
  port?: number;
  /** Folder keeping D1 data across restarts; in memory when omitted. */
  persistTo?: string;
  /** Secrets; development defaults otherwise. */
  authSecret?: string;
  webhookSecret?: string;
  /** `COOKIE_SECURE`: `false` drops `Secure` from cookies. Default unset (Secure). */
  cookieSecure?: boolean;
  /** `REGISTER_RATE_LIMIT`: sign-ups and sign-in attempts per IP per 15 minutes. Default unset (50). */
  registerRateLimit?: number;
}

/** A running example. */
export interface ServedWorker {
  url: URL;
  /** The webhook events stored in D1, oldest first (read through Miniflare, not over HTTP). */
  webhookEvents(): Promise<Array<{ traceId: string; payload: unknown }>>;
  dispose(): Promise<void>;
}

const ENTRY = fileURLToPath(new URL('./worker.ts', import.meta.url));

/**
 * Bundles and starts the example Worker.
 * @example
 * ```ts
 * const { url, dispose } = await serveWorker({ port: 0 });
 * await fetch(new URL('/', url));
 * await dispose();
 * ```
 */
export async function serveWorker(options: ServeOptions = {}): Promise<ServedWorker> {
  const mf = new Miniflare({
    modules: await bundleWorker(ENTRY),
    ...WORKERD_COMPAT,
    port: options.port ?? 8787,
    d1Databases: ['DB'],
    ...(options.persistTo ? { d1Persist: options.persistTo } : {}),
    bindings: {
      AUTH_SECRET: options.authSecret ?? 'dev-secret-dev-secret-dev-secret-0123456789',
      WEBHOOK_SECRET: options.webhookSecret ?? 'dev-webhook-secret',
      ...(options.cookieSecure === undefined ? {} : { COOKIE_SECURE: String(options.cookieSecure) }),
      ...(options.registerRateLimit === undefined ? {} : { REGISTER_RATE_LIMIT: String(options.registerRateLimit) }),
    },
  });
  const url = await mf.ready;
  async function webhookEvents() {
    const db = await mf.getD1Database('DB');
    const { results } = await db
      .prepare(`SELECT trace_id, payload FROM ${EVENTS_TABLE} ORDER BY received_at`)
      .all<{ trace_id: string; payload: string }>();
    return results.map((row: { trace_id: string; payload: string }) => ({
      traceId: row.trace_id,
      payload: JSON.parse(row.payload) as unknown,
    }));
  }
  return { url, webhookEvents, dispose: () => mf.dispose() };
}
