/** The publishing rules (rules.mjs) and the workspace manifests that must satisfy them. */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  attwProfile,
  manifestProblems,
  PUBLISHED,
  tarballProblems,
  typesVersionsProblems,
  type PackageManifest,
} from './rules.mjs';

const root = resolve(import.meta.dirname, '../..');
const manifestOf = (dir: string): PackageManifest & Record<string, unknown> =>
  JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));

describe('tarball contents', () => {
  it('refuses sources, tests, fixtures and source maps wherever they sit', () => {
    const shipped = [
      'src/index.ts',
      'dist/src/index.js',
      'dist/index.test.js',
      'dist/plugins/jwt.test.ts',
      'dist/types.test-d.ts',
      'dist/runner.test.mjs',
      'dist/__fixtures__/user.json',
      'dist/index.js.map',
      'dist/index.cjs.map',
    ];
    for (const path of shipped) expect(tarballProblems('@framework/x', [path]), path).toHaveLength(1);
  });

  it('accepts a build, its declarations, the CLI launcher, assets and the docs', () => {
    const clean = [
      'package.json',
      'README.md',
      'CHANGELOG.md',
      'LICENSE',
      'dist/index.js',
      'dist/index.cjs',
      'dist/index.d.ts',
      'dist/index.d.cts',
      'dist/plugins/two-factor.js',
      'dist/chunk-2ABAAMJU.cjs',
      'dist/testing.js',
      'dist/conformance.d.ts',
      'bin/framework.mjs',
      'assets/dashboard.js',
    ];
    expect(tarballProblems('@framework/x', clean)).toEqual([]);
  });
});

describe('manifests', () => {
  const base = { name: '@framework/x', files: ['dist', 'README.md'] };

  it('a `files` list that ships anything but the build and docs is refused, as is no list', () => {
    for (const files of [
      ['dist', 'src'],
      ['dist', 'src/**/*.ts'],
      ['dist', 'test'],
      ['*'],
      ['dist', '!dist/*.map', 'src'],
    ]) {
      expect(manifestProblems({ ...base, files }).length, files.join(',')).toBeGreaterThan(0);
    }
    expect(manifestProblems({ name: '@framework/x' })).toHaveLength(1);
    expect(manifestProblems({ ...base, files: ['dist', 'bin', 'README.md', 'CHANGELOG.md'] })).toEqual([]);
  });

  it('only @framework/testing may list vitest as a peer', () => {
    const withVitest = { ...base, peerDependencies: { vitest: '^4.0.0' } };
    expect(manifestProblems(withVitest)).toHaveLength(1);
    expect(manifestProblems({ ...withVitest, name: '@framework/auth' })).toHaveLength(1);
    expect(manifestProblems({ ...withVitest, name: '@framework/testing' })).toEqual([]);
  });

  it('every subpath export needs a typesVersions entry with the ESM types; extra entries are refused', () => {
    const exports = {
      '.': { import: { types: './dist/index.d.ts' } },
      './a': { import: { types: './dist/a.d.ts', default: './dist/a.js' }, require: { types: './dist/a.d.cts' } },
      './b/c': { types: './dist/b/c.d.ts', default: './dist/b/c.js' },
      './package.json': './package.json',
    };
    const good = { a: ['./dist/a.d.ts'], 'b/c': ['./dist/b/c.d.ts'] };
    expect(typesVersionsProblems({ ...base, exports, typesVersions: { '*': good } })).toEqual([]);
    expect(typesVersionsProblems({ ...base, exports })).toHaveLength(2);
    expect(
      typesVersionsProblems({ ...base, exports, typesVersions: { '*': { ...good, a: ['./dist/a.d.cts'] } } }),
    ).toHaveLength(1);
    expect(
      typesVersionsProblems({ ...base, exports, typesVersions: { '*': { ...good, gone: ['./dist/gone.d.ts'] } } }),
    ).toHaveLength(1);
  });

  it('dual packages are checked under node10 too (attw strict); ESM-only ones under esm-only', () => {
    expect(attwProfile(false)).toBe('strict');
    expect(attwProfile(true)).toBe('esm-only');
  });
});

describe('the published packages', () => {
  for (const dir of Object.keys(PUBLISHED)) {
    it(`${dir}: ships dist only, no vitest peer unless it is the testing kit, node10 types for every subpath`, () => {
      expect(manifestProblems(manifestOf(dir))).toEqual([]);
    });
  }

  it('the conformance suites are published by @framework/testing only', () => {
    for (const dir of Object.keys(PUBLISHED)) {
      const exports = manifestOf(dir).exports ?? {};
      if (dir === 'testing') expect(exports).toHaveProperty(['./conformance']);
      else expect(exports).not.toHaveProperty(['./conformance']);
    }
  });
});

describe('the scratch project of check:packages', () => {
  const entries = JSON.parse(readFileSync(join(import.meta.dirname, 'smoke/entries.json'), 'utf8')) as {
    both: string[];
    esmOnly: string[];
    notLoaded: Record<string, string>;
  };

  it('loads every published entry point, or says why not', () => {
    const listed = new Set([...entries.both, ...entries.esmOnly, ...Object.keys(entries.notLoaded)]);
    const published = Object.keys(PUBLISHED).flatMap((dir) => {
      const manifest = manifestOf(dir);
      return Object.keys(manifest.exports ?? {})
        .filter((key) => key !== './package.json')
        .map((key) => (key === '.' ? manifest.name : `${manifest.name}${key.slice(1)}`));
    });
    expect(published.filter((entry) => !listed.has(entry))).toEqual([]);
    expect([...listed].filter((entry) => !published.includes(entry))).toEqual([]);
  });

  it('requires only the dual packages: an ESM-only entry is never in `both`', () => {
    const esmOnlyNames = Object.entries(PUBLISHED)
      .filter(([, esm]) => esm)
      .map(([dir]) => manifestOf(dir).name);
    expect(entries.both.filter((entry) => esmOnlyNames.some((n) => entry === n || entry.startsWith(`${n}/`)))).toEqual(
      [],
    );
  });
});
