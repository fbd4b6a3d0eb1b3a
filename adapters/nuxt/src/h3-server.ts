/**
 * A plain h3 1.x app on a real Node server, as the adapter's tests run it: `securityHeaders()` and
 * `authSession(auth)` as middleware, `authHandler(auth)` on `/auth/**`, then the routes given.
 * @internal
 * @module
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, createRouter, toNodeListener, type EventHandler, type RouterMethod } from 'h3';
import { authHandler, authSession, securityHeaders, type AuthSource } from './index.js';

/** A route of the test app: method, path and handler. */
export type TestRoute = [RouterMethod | 'all', string, EventHandler];

/** A running test app: its origin and how to stop it. */
export interface TestServer {
  baseUrl: string;
  server: Server;
  close(): Promise<void>;
}

/** Starts the app on 127.0.0.1, port 0. */
export async function startH3App(auth: AuthSource, routes: TestRoute[], trustProxy = false): Promise<TestServer> {
  const app = createApp();
  app.use(securityHeaders());
  app.use(authSession(auth, { trustProxy }));
  const router = createRouter();
  router.use('/auth/**', authHandler(auth, { trustProxy }));
  for (const [method, path, handler] of routes) router.use(path, handler, method === 'all' ? undefined : method);
  app.use(router);
  const server = createServer(toNodeListener(app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
