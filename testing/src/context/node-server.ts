/**
 * `serveNodeApp`: a Node `(req, res)` app (Express, Koa's `callback()`, `node:http` handlers) behind a real server
 * on 127.0.0.1, port 0, seen by a test context as a fetch handler.
 * @module
 */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FetchHandler } from './app.js';

/** A served Node app: a fetch handler for `createTestContext`, its address, and how to stop it. */
export interface ServedNodeApp {
  /**
   * Sends a request to the server: its path and query, method, headers and body, whatever origin the request
   * names (the test context's), without following redirects.
   */
  app: FetchHandler;
  /** The server's own address, `http://127.0.0.1:<port>`. */
  url: string;
  /** Closes the server and its connections. */
  close(): Promise<void>;
}

/**
 * Serves `listener` on 127.0.0.1 (port 0) for tests. Return it from `createApp` with your auth (`{ ...served,
 * auth }`): the context's `fetch`, `withAuth`, cookies and mailbox then work against the real server, and
 * `cleanup()` closes it. Requests keep the context's origin in their `Host`-independent parts: give the auth
 * `baseURL: origin` so its links and origin checks use the context's origin.
 *
 * @example
 * ```ts
 * const ctx = await createTestContext({
 *   createApp: async (db, { origin }) => {
 *     const auth = createAuth({ baseURL: origin, adapter: db.adapter, providers: [] });
 *     const app = express().use(authRouter(auth));
 *     return { ...(await serveNodeApp(app)), auth };
 *   },
 * });
 * ```
 */
export async function serveNodeApp(listener: RequestListener): Promise<ServedNodeApp> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    app: async (request) => {
      const { pathname, search } = new URL(request.url);
      const body = request.body ? await request.arrayBuffer() : undefined;
      const headers = new Headers(request.headers);
      return fetch(`${url}${pathname}${search}`, { method: request.method, headers, body, redirect: 'manual' });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
