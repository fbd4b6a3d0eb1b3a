/**
 * Production builds of the bench apps (`bench/apps/<framework>`), made only when missing or older than their
 * inputs: the app's own files, `bench-auth.ts`, and the `src/` of the adapter and of the core, which the build
 * bundles through the `@framework/source` condition. A build writes `build/.build-inputs.json` with the newest
 * input time it saw (as the examples' build-if-stale helper does). `npm run bench` builds what is stale before it
 * measures; `npm test` never builds them.
 */
import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const APPS = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(APPS, '..', '..');

/** The frameworks with a bench app, and the `adapters/` folder of each one's kit adapter. */
export const FRAMEWORKS = {
  sveltekit: 'sveltekit',
  remix: 'remix',
  next: 'next',
  nuxt: 'nuxt',
  astro: 'astro',
} as const;
export type Framework = keyof typeof FRAMEWORKS;

/** Outputs and caches, never inputs. */
const NOT_INPUTS = new Set(['node_modules', 'build', '.svelte-kit', '.react-router', '.astro', '.nuxt', '.output']);
const NOT_BUNDLED = /\.test(-helpers)?\.ts$|^next-env\.d\.ts$|\.tsbuildinfo$/;

async function newestUnder(path: string): Promise<number> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = 0;
  for (const entry of await readdir(path, { withFileTypes: true })) {
    if (NOT_INPUTS.has(entry.name) || NOT_BUNDLED.test(entry.name)) continue;
    newest = Math.max(newest, await newestUnder(join(path, entry.name)));
  }
  return newest;
}

/** The app's folder. */
export const appDir = (framework: Framework): string => join(APPS, framework);

/** The build command of each app, run in its folder with the repository's `node_modules/.bin` on the PATH. */
const COMMANDS: Record<Framework, string[]> = {
  sveltekit: ['vite', 'build'],
  remix: ['react-router', 'build'],
  next: ['next', 'build'],
  nuxt: ['nuxt', 'build'],
  astro: ['astro', 'build'],
};

function run(framework: Framework): Promise<void> {
  const [command, ...args] = COMMANDS[framework];
  const env = {
    ...process.env,
    PATH: [join(ROOT, 'node_modules', '.bin'), process.env.PATH].join(delimiter),
    NEXT_TELEMETRY_DISABLED: '1',
    NUXT_TELEMETRY_DISABLED: '1',
    ASTRO_TELEMETRY_DISABLED: '1',
  };
  return new Promise((resolve, reject) => {
    const child = spawn(command!, args, { cwd: appDir(framework), stdio: ['ignore', 'pipe', 'pipe'], env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(
            new Error(
              `bench app ${framework}: ${command} ${args.join(' ')} exited with ${code}\n${output.slice(-4000)}`,
            ),
          ),
    );
  });
}

/**
 * Builds the bench app of `framework` into its `build/` unless that build is current.
 * @returns whether it built.
 * @throws Error with the build's output when the build fails.
 */
export async function buildBenchApp(framework: Framework): Promise<boolean> {
  const dir = appDir(framework);
  const newest = Math.max(
    await newestUnder(dir),
    await newestUnder(join(APPS, 'bench-auth.ts')),
    await newestUnder(join(ROOT, 'adapters', FRAMEWORKS[framework], 'src')),
    await newestUnder(join(ROOT, 'core', 'src')),
  );
  const stampFile = join(dir, 'build', '.build-inputs.json');
  const stamp = await readFile(stampFile, 'utf8').then(
    (text) => JSON.parse(text) as { newestInput: number },
    () => undefined,
  );
  if (stamp && stamp.newestInput >= newest) return false;
  console.log(`building the ${framework} bench app (production build, once until its inputs change)…`);
  await run(framework);
  // Astro writes generated types into the project on every build; nothing reads them.
  await rm(join(dir, '.astro'), { recursive: true, force: true });
  await mkdir(join(dir, 'build'), { recursive: true });
  await writeFile(stampFile, JSON.stringify({ newestInput: newest, builtAt: new Date().toISOString() }) + '\n');
  return true;
}

if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) {
  const chosen = process.argv.slice(2) as Framework[];
  for (const framework of chosen.length ? chosen : (Object.keys(FRAMEWORKS) as Framework[]))
    console.log(`${framework}: ${(await buildBenchApp(framework)) ? 'built' : 'current'}`);
}
