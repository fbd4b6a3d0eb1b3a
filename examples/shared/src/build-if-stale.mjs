/**
 * `npm start` of the built examples (SvelteKit, React Router): build only when
 * the build is missing or older than its inputs, then start the server.
 *
 * The inputs are the example's own files (outside its build, cache and data
 * folders) and the `src/` of every workspace package it depends on, which
 * Vite bundles through the `@framework/source` condition. A build writes
 * `<output>/.build-inputs.json` with the newest input time it saw; the next
 * start compares against it, so a current build starts in about a second.
 *
 * Plain JavaScript so that `node start.mjs` runs it with nothing compiled.
 */
import { spawn } from 'node:child_process';
import { readFile, readdir, realpath, stat, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

/** Folders of an example that are outputs or caches, never inputs. */
const NOT_INPUTS = new Set([
  'node_modules',
  'build',
  '.test-build',
  '.svelte-kit',
  '.react-router',
  '.astro',
  'dist',
  '.data',
  'test-results',
]);

/** Files of a dependency package that no build bundles: its tests and their helpers. */
const NOT_BUNDLED = /\.test(-helpers)?\.ts$/;

/**
 * The newest modification time (ms) of the files under `dir`, skipping {@link NOT_INPUTS} and the files `skip`
 * matches.
 */
async function newestUnder(dir, skip) {
  let newest = 0;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (NOT_INPUTS.has(entry.name) || skip?.test(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, await newestUnder(path, skip));
    else if (entry.isFile()) newest = Math.max(newest, (await stat(path)).mtimeMs);
  }
  return newest;
}

/** The source folders of the example's `@framework/*` dependencies (workspace links), with their package.json. */
async function workspaceInputs(dir) {
  const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
  const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((name) =>
    name.startsWith('@framework/'),
  );
  const roots = [];
  for (const name of names) {
    for (const base of [join(dir, 'node_modules'), join(dir, '..', '..', 'node_modules')]) {
      const root = await realpath(join(base, name)).catch(() => undefined);
      if (root) {
        roots.push(root);
        break;
      }
    }
  }
  return roots;
}

/** The newest input time of the example in `dir`. */
export async function newestInput(dir) {
  let newest = await newestUnder(dir);
  for (const root of await workspaceInputs(dir)) {
    newest = Math.max(newest, await newestUnder(join(root, 'src'), NOT_BUNDLED));
    newest = Math.max(newest, (await stat(join(root, 'package.json'))).mtimeMs);
  }
  return newest;
}

/**
 * Runs `command` from the example's or the repository's `node_modules/.bin` (as `npm run` would), dropping
 * stdout/stderr lines matched by `quiet`.
 */
function run(command, args, cwd, quiet) {
  const bins = [join(cwd, 'node_modules', '.bin'), join(cwd, '..', '..', 'node_modules', '.bin')];
  const env = { ...process.env, PATH: [...bins, process.env.PATH].join(delimiter) };
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env });
    const relay = (from, to) => {
      let rest = '';
      from.setEncoding('utf8');
      from.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop();
        for (const line of lines) if (!quiet.some((pattern) => pattern.test(line))) to.write(`${line}\n`);
      });
      from.on('end', () => rest && to.write(rest));
    };
    relay(child.stdout, process.stdout);
    relay(child.stderr, process.stderr);
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`)),
    );
  });
}

/**
 * Builds the example in `dir` into `output` unless that build is current.
 * @param {{ dir: string; output: string; command: string; args: string[]; quiet?: RegExp[] }} options
 *   `quiet`: lines of the build's output to drop (known upstream notices, each explained where it is passed).
 * @returns {Promise<boolean>} whether it built.
 */
export async function buildIfStale({ dir, output, command, args, quiet = [] }) {
  const stampFile = join(dir, output, '.build-inputs.json');
  const newest = await newestInput(dir);
  const stamp = await readFile(stampFile, 'utf8').then(JSON.parse, () => undefined);
  if (stamp && stamp.newestInput >= newest) {
    console.log(`${output}/ is current (nothing changed since it was built); skipping the build`);
    return false;
  }
  await run(command, args, dir, quiet);
  await writeFile(stampFile, JSON.stringify({ newestInput: newest, builtAt: new Date().toISOString() }) + '\n');
  return true;
}
