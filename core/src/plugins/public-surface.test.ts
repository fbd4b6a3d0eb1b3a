/**
 * Plugins built on the public plugin kit only: every import of theirs that leaves the plugin's folder names a public
 * entry point of `@framework/auth` (a `package.json` export), so a third party can write the same plugin. New
 * plugins join the list.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PUBLIC_ONLY = [
  'two-factor',
  'captcha',
  'have-i-been-pwned',
  'otp',
  'email-otp',
  'one-tap',
  'sso',
  'oidc-provider',
  'phone-number',
  'last-login-method',
  'anonymous',
  'bearer',
  'username',
  'multi-session',
];

const plugins = dirname(fileURLToPath(import.meta.url));
const core = resolve(plugins, '../..');
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

/** The imports of `file` that leave `folder` and are not a public entry point. */
function privateImports(folder: string, file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(SPECIFIER)]
    .map((m) => (m[1] ?? m[2])!)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => resolve(dirname(file), spec.replace(/\.js$/, '.ts')))
    .filter((target) => !target.startsWith(`${folder}/`) && !publicEntries.has(target))
    .map((target) => `${relative(plugins, file)} -> ${relative(core, target)}`);
}

describe('plugins on the public plugin kit', () => {
  it('knows the public entry points, the plugin kit among them', () => {
    expect(publicEntries.has(join(core, 'src/plugin-kit.ts'))).toBe(true);
  });

  it('would see a private import (the check itself)', () => {
    const folder = join(plugins, 'two-factor');
    const file = join(folder, 'x.ts');
    expect(resolve(dirname(file), '../../routes/helpers.ts').startsWith(`${folder}/`)).toBe(false);
    expect(publicEntries.has(resolve(dirname(file), '../../routes/helpers.ts'))).toBe(false);
  });

  it.each(PUBLIC_ONLY)('%s imports nothing from the core but its public entry points', (name) => {
    const folder = join(plugins, name);
    const files = sources(folder);
    expect(files.length).toBeGreaterThan(1);
    expect(files.flatMap((file) => privateImports(folder, file))).toEqual([]);
  });
});
