/**
 * A page that uses the browser client (`@framework/auth-client`): the auth
 * store's status and user, a sign-in form calling `signIn('credentials')`
 * and a sign-out button. The script is bundled with esbuild from the
 * client's TypeScript sources (the `@framework/source` export condition) on the first
 * request and kept in memory.
 */
import type { Env, Hono } from 'hono';

/** Options of {@link mountClientDemo}. */
export interface ClientDemoOptions {
  /** Path of the page; the script is served at `${path}.js`. Default `/client-demo`. */
  path?: string;
}

const ENTRY = new URL('./client-demo.entry.ts', import.meta.url);

/** Bundles the demo script: minified ESM for browsers, nanostores' dev checks compiled out. */
async function bundle(): Promise<string> {
  const { build } = await import('esbuild');
  const { fileURLToPath } = await import('node:url');
  const result = await build({
    entryPoints: [fileURLToPath(ENTRY)],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    conditions: ['@framework/source'],
    define: { 'process.env.NODE_ENV': '"production"' },
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

function page(script: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Client demo</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1d2330}label{display:block;margin:.75rem 0 .25rem}input{padding:.5rem;width:100%;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1rem}</style>
<script type="module" src="${script}"></script></head>
<body data-status="loading"><h1>Browser client demo</h1>
<p>Status: <strong id="status">loading</strong> <span id="user-email"></span></p>
<p id="message" role="status"></p>
<form id="signin-form" hidden><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>
<button id="signout" type="button" hidden>Sign out</button>
<p><a href="/">Home</a> · <a href="/auth/signup">Create an account</a></p></body></html>`;
}

/**
 * Serves the client demo: `GET /client-demo` (HTML) and `GET
 * /client-demo.js` (the bundled script). Call it before the app serves its
 * first request (Hono fixes its routes then). esbuild is loaded on the first
 * script request only, so apps that never open the demo do not need it.
 *
 * @example
 * ```ts
 * const example = await createExampleApp();
 * mountClientDemo(example.app);
 * ```
 */
export function mountClientDemo<E extends Env>(app: Hono<E>, options: ClientDemoOptions = {}): Hono<E> {
  const path = options.path ?? '/client-demo';
  let script: Promise<string> | undefined;
  app.get(path, (c) => c.html(page(`${path}.js`)));
  app.get(`${path}.js`, async (c) => {
    script ??= bundle().catch((error: unknown) => {
      script = undefined;
      throw error;
    });
    return c.body(await script, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' });
  });
  return app;
}
