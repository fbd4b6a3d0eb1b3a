/**
 * `framework --version`: the installed `@framework/cli` version, read from its package.json (found by walking
 * up from this module, so it works from the built dist and from the sources alike).
 * @module
 * @internal
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's version, or `unknown` when its package.json cannot be found. */
export async function packageVersion(from: string = import.meta.url): Promise<string> {
  let dir = dirname(fileURLToPath(from));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@framework/cli' && pkg.version) return pkg.version;
    } catch {
      // not here: go up
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return 'unknown';
}
