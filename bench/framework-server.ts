/**
 * A child process serving one framework bench app (`bench/apps/<framework>`, production build) for the
 * throughput benchmark. The kind is `<framework>-<mode>`: `noop` (the framework's own no-op middleware and a
 * route answering `ok`) or `protected` (the kit's adapter and a route requiring the signed-in user, jwt). In both
 * modes it creates the auth instance and its signed-in user (`signedInAuth('jwt')`, as the Hono rows do) and hands
 * it to the app (`bench/apps/bench-auth.ts`; only the protected route uses it), starts the app's production server
 * in this process (so `/proc/<pid>/stat` counts all of its CPU), and prints `PORT <n> <session cookie>` once it
 * answers.
 */
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { signedInAuth } from './fixtures.js';
import { provideBenchAuth } from './apps/bench-auth.js';
import { appDir, FRAMEWORKS, type Framework } from './apps/build.js';

const kind = process.argv[2] ?? '';
const dash = kind.lastIndexOf('-');
const framework = kind.slice(0, dash) as Framework;
const mode = kind.slice(dash + 1);
if (!(framework in FRAMEWORKS) || (mode !== 'noop' && mode !== 'protected'))
  throw new Error(`framework-server: unknown kind ${kind}`);

// In both modes, so that the two processes differ only in the route: the no-op process holds the same engine,
// storage and signed-in user (heap, open database) as the protected one, and gets the same kind of cookie. Without
// it the no-op row ran in a smaller process, and the protected row's µs over it counted that difference too.
const { auth, cookie } = await signedInAuth('jwt');
provideBenchAuth(auth);

/** A free loopback port (the servers below read PORT; they cannot report an ephemeral one). */
const port = await new Promise<number>((resolve, reject) => {
  const probe = createServer();
  probe.once('error', reject);
  probe.listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  });
});

Object.assign(process.env, {
  BENCH_MODE: mode,
  PORT: String(port),
  HOST: '127.0.0.1',
  NITRO_PORT: String(port),
  NITRO_HOST: '127.0.0.1',
  ORIGIN: `http://127.0.0.1:${port}`,
  NODE_ENV: 'production',
});

/** The production server of each app, relative to its folder: each listens on PORT and HOST once imported. */
const ENTRIES: Record<Framework, string> = {
  sveltekit: 'build/server/index.js',
  remix: 'server.mjs',
  next: 'server.mjs',
  nuxt: 'build/output/server/index.mjs',
  astro: 'server.mjs',
};
await import(pathToFileURL(join(appDir(framework), ENTRIES[framework])).href);

// Ready when the route answers 200 (with the session cookie, as the load sends it to both routes).
const url = `http://127.0.0.1:${port}/`;
for (let attempt = 0; ; attempt++) {
  const status = await fetch(url, { headers: { cookie } }).then(
    async (res) => {
      await res.arrayBuffer();
      return res.status;
    },
    () => 0,
  );
  if (status === 200) break;
  if (status !== 0 || attempt > 600) throw new Error(`framework-server: ${kind} answered ${status} on ${url}`);
  await new Promise((resolve) => setTimeout(resolve, 50));
}
process.stdout.write(`PORT ${port} ${cookie}\n`);
process.on('SIGTERM', () => process.exit(0));
