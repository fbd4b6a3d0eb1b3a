import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const core = fileURLToPath(new URL('../../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory()
      ? sources(path)
      : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')
        ? [path]
        : [];
  });
}

describe('@framework/auth/plugins/api-keys is its own subpath', () => {
  it('is exported like the other subpaths, with a workspace source condition, and built by tsup', () => {
    const pkg = JSON.parse(readFileSync(join(core, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    expect(pkg.exports['./plugins/api-keys']).toStrictEqual({
      '@framework/source': './src/plugins/api-keys/index.ts',
      import: { types: './dist/plugins/api-keys.d.ts', default: './dist/plugins/api-keys.js' },
      require: { types: './dist/plugins/api-keys.d.cts', default: './dist/plugins/api-keys.cjs' },
    });
    expect(readFileSync(join(core, 'tsup.config.ts'), 'utf8')).toContain(
      "'plugins/api-keys': 'src/plugins/api-keys/index.ts'",
    );
  });

  it('no other core module imports it, so apps that do not import it do not load it', () => {
    const own = join(core, 'src/plugins/api-keys');
    const importers = sources(join(core, 'src'))
      .filter((file) => !file.startsWith(own))
      .filter((file) => /from '[^']*api-keys[^']*'/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(core, file));
    expect(importers).toStrictEqual([]);
  });
});
