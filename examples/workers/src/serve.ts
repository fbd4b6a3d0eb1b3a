/**
 * Serves the example Worker through Miniflare (workerd): bundles
 * `src/worker.ts` and binds a D1 database and the two secrets.
 * @module
 */
import { Miniflare } from 'miniflare';
import { fileURLToPath } from 'node:url';
import { bundleWorker, WORKERD_COMPAT } from '../../../runtime-tests/src/workerd/bundle.js';

/** Options of {@link serveWorker}. */
export interface ServeOptions {
  /** TCP port; 0 picks a free one. Default 8787. */
  port?: number;
  /** Folder keeping D1 data across restarts; in memory when omitted. */
  persistTo?: string;
  /** Secrets; development defaults otherwise. */
  authSecret?: string;
  webhookSecret?: string;
}

/** A running example. */
export interface ServedWorker {
  url: URL;
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
    },
  });
  const url = await mf.ready;
  return { url, dispose: () => mf.dispose() };
}
