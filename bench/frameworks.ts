/**
 * The framework rows of `npm run bench` (issues 39 and 43): for SvelteKit, React Router, Next.js, Nuxt and Astro, a
 * protected route through the kit's adapter beside the same framework's own no-op middleware, each served from a
 * production build of its bench app (`bench/apps/<framework>`, built when stale); and the Hono rows on Node 24
 * (`authSession(auth, { scope: true })` among them) beside Node 24's own no-op middleware.
 *
 * `npm run bench:frameworks -w @framework/bench` prints only these rows. `BENCH_FRAMEWORKS` picks some
 * (`sveltekit,remix,next,nuxt,astro,node24`; default all), `BENCH_SECONDS` and `BENCH_ROUNDS` shorten a quick look
 * (default 3 s, 5 rounds). A row that cannot be built or served is printed as "not measured" with the reason.
 */
import { spawnSync } from 'node:child_process';
import { printAdapterTable } from './adapter-table.js';
import { buildBenchApp, FRAMEWORKS, type Framework } from './apps/build.js';
import { ADAPTER_DEFAULT_OVER_NOOP } from './goals.js';
import { frameworkProtectedVsNoop, node24ProtectedVsNoop } from './throughput.js';
import { ensureNode24 } from '../runtime-tests/src/node/install-node24.js';

/** The table title and the two rows' labels of each framework. */
const LABELS: Record<Framework, { name: string; noop: string; guarded: string }> = {
  sveltekit: {
    name: 'SvelteKit 2 (adapter-node)',
    noop: 'a no-op handle hook + a +server.ts GET',
    guarded: 'authHandle(auth) as shipped + requireUser(event)',
  },
  remix: {
    name: 'React Router 7 (resource route, node-fetch-server)',
    noop: 'a no-op route middleware + a loader',
    guarded: 'the same + createAuthHelpers(auth).requireUser(request)',
  },
  next: {
    name: 'Next.js 15 (next({ dev: false }) handler)',
    noop: 'a no-op middleware.ts + a Route Handler',
    guarded: 'the same + withAuth(handler) + requireAuth() of createAuthHelpers(auth)',
  },
  nuxt: {
    name: 'Nuxt 3 (Nitro node-server)',
    noop: 'a no-op server middleware + a server route',
    guarded: 'authSession(auth) + requireAuth(event)',
  },
  astro: {
    name: 'Astro 5 (@astrojs/node)',
    noop: 'a no-op middleware + an endpoint',
    guarded: 'authMiddleware(auth) + requireAuth(context)',
  },
};

/** The first line of an error's message: the reason printed beside "not measured". */
const reason = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0];

/** Builds (when stale), measures and prints one table per framework. */
export async function printFrameworkThroughput(
  frameworks: readonly Framework[] = Object.keys(FRAMEWORKS) as Framework[],
  seconds = 3,
  rounds = 5,
): Promise<void> {
  // Every stale build first, so that no build runs between two measurements.
  const built = new Map<Framework, unknown>();
  for (const framework of frameworks) built.set(framework, await buildBenchApp(framework).catch((e: unknown) => e));
  for (const framework of frameworks) {
    const { name, noop, guarded } = LABELS[framework];
    const title = `protected route (jwt) vs ${name}'s own no-op middleware, production build`;
    try {
      const build = built.get(framework);
      if (build instanceof Error) throw build;
      const t = await frameworkProtectedVsNoop(framework, seconds, rounds);
      printAdapterTable(
        title,
        t,
        [
          [noop, `${framework}-noop`, undefined],
          [guarded, `${framework}-protected`, ADAPTER_DEFAULT_OVER_NOOP],
        ],
        { bare: `${framework}-noop`, noop: `${framework}-noop` },
        rounds,
        { baseName: 'the no-op' },
      );
    } catch (e) {
      console.log(`\n== ${title}\n${LABELS[framework].guarded}: not measured (${reason(e)})`);
    }
  }
}

/** The Hono rows on Node 24 (installed into `.cache/node24` on first use), beside Node 24's no-op middleware. */
export async function printNode24Throughput(seconds = 3, rounds = 5): Promise<void> {
  const title = 'protected route vs a no-op Hono middleware, on Node 24 (the user in memory storage)';
  try {
    const binary = await ensureNode24();
    const version = spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/^v/, '');
    const t = await node24ProtectedVsNoop(binary, seconds, rounds);
    printAdapterTable(
      title,
      t,
      [
        ['a no-op middleware (the ceiling of any)', 'noop@node24', undefined],
        ['authSession(auth) + requireAuth(c) (default, jwt)', 'default@node24', undefined],
        ['authSession(auth, {scope: true}) (jwt, AsyncLocalStorage)', 'scoped@node24', undefined],
      ],
      { bare: 'noop@node24', noop: 'noop@node24' },
      rounds,
      { baseName: 'the no-op', node: version },
    );
    console.log('(the goals of issue 39 are set on Node 20; Node 24 is printed beside them, without a verdict)');
  } catch (e) {
    console.log(`\n== ${title}\nnot measured (${reason(e)})`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const seconds = Number(process.env.BENCH_SECONDS ?? 3);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const chosen = (process.env.BENCH_FRAMEWORKS ?? [...Object.keys(FRAMEWORKS), 'node24'].join(','))
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = chosen.filter((name) => name !== 'node24' && !(name in FRAMEWORKS));
  if (unknown.length) throw new Error(`BENCH_FRAMEWORKS: unknown ${unknown.join(', ')}`);
  await printFrameworkThroughput(
    chosen.filter((name): name is Framework => name in FRAMEWORKS),
    seconds,
    rounds,
  );
  if (chosen.includes('node24')) await printNode24Throughput(seconds, rounds);
  process.exit(0);
}
