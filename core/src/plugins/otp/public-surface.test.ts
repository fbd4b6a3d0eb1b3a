/**
 * `otp` is built on the public plugin kit only: every import that leaves its folder names a public entry
 * point of `@framework/auth` (a `package.json` export), so a third party can write the same plugin.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const folder = dirname(fileURLToPath(import.meta.url));
const core = resolve(folder, '../../..');
const manifest = JSON.parse(readFileSync(join(core, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { '@framework/source'?: string }>;
};
const publicEntries = new Set(
  Object.values(manifest.exports)
    .map((e) => (typeof e === 'object' ? e['@framework/source'] : undefined))
    .filter((source): source is string => source !== undefined)
    .map((source) => resolve(core, source)),
);
const SPECIFIER = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.ts$/.test(name) && !/\.test(-helpers)?\.ts$/.test(name) ? [path] : [];
  });
}

/** The imports of `file` that leave the plugin's folder and are not a public entry point. */
function privateImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(SPECIFIER)]
    .map((m) => (m[1] ?? m[2])!)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => resolve(dirname(file), spec.replace(/\.js$/, '.ts')))
    .filter((target) => !target.startsWith(`${folder}/`) && !publicEntries.has(target))
    .map((target) => `${relative(folder, file)} -> ${relative(core, target)}`);
}

describe('otp on the public plugin kit', () => {
  it('knows the public entry points, the plugin kit among them', () => {
    expect(publicEntries.has(join(core, 'src/plugin-kit.ts'))).toBe(true);
    expect(sources(folder).length).toBeGreaterThan(4);
  });

  it('imports nothing from the core but its public entry points', () => {
    expect(sources(folder).flatMap(privateImports)).toEqual([]);
  });

  it('would see a private import (the check itself)', () => {
    const fake = join(folder, 'x.ts');
    expect(resolve(dirname(fake), '../../routes/helpers.ts').startsWith(`${folder}/`)).toBe(false);
    expect(publicEntries.has(resolve(dirname(fake), '../../routes/helpers.ts'))).toBe(false);
  });
});
