/**
 * Test helpers for the example app: a real server on port 0 over a given
 * SQLite file, and a browser-like client with a tough-cookie jar.
 */
import { serve, type ServerType } from '@hono/node-server';
import { CookieJar } from 'tough-cookie';
import { createExampleApp, type ExampleApp, type ExampleOptions } from './app.js';
import { generousLogins } from '@framework/example-shared/testing/logins';
import { freePort } from '@framework/example-shared/testing/process';
import { dirname } from 'node:path';
import { exampleSecret } from './dev-secret.js';

export interface Running {
  example: ExampleApp;
  server: ServerType;
  /** `http://127.0.0.1:<port>`. */
  base: string;
  /** `http://localhost:<port>`: the app's configured origin (passkeys need a localhost host in the browser). */
  origin: string;
}

/**
 * Starts the example on a free port. `likeNpmStart`: configured as `npm start` does it, with a secret generated
 * beside `dbPath` and `baseURL` set to the origin, so every feature is on (two-factor, access tokens, ...).
 */
export async function start(options: ExampleOptions & { dbPath: string; likeNpmStart?: boolean }): Promise<Running> {
  const { likeNpmStart, ...rest } = options;
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const allOn = likeNpmStart ? { secret: exampleSecret({}, dirname(rest.dbPath)), baseURL: origin } : {};
  const example = await createExampleApp({ mailLog: () => {}, origin, rateLimit: generousLogins(), ...allOn, ...rest });
  await example.runtime.start();
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: example.app.fetch, port, hostname: '127.0.0.1' }, () => resolve(s));
  });
  return { example, server, base: `http://127.0.0.1:${port}`, origin };
}

export async function stop(r: Running): Promise<void> {
  await new Promise<void>((resolve) => r.server.close(() => resolve()));
  await r.example.close();
}

/** fetch with a tough-cookie jar, never following redirects. */
export function browser() {
  const jar = new CookieJar();
  return {
    jar,
    async fetch(url: string, init: RequestInit = {}): Promise<Response> {
      const headers = new Headers(init.headers);
      const cookie = await jar.getCookieString(url);
      if (cookie) headers.set('cookie', cookie);
      const res = await fetch(url, { ...init, headers, redirect: 'manual' });
      for (const line of res.headers.getSetCookie()) await jar.setCookie(line, url);
      return res;
    },
  };
}

export const csrfFrom = (html: string) => /name="csrfToken" value="([^"]+)"/.exec(html)?.[1] ?? '';
export const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});
