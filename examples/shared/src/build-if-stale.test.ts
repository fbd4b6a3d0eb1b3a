/**
 * `npm start` of the built examples builds only when the build is missing or older than an input, and
 * drops only the output lines it is told to.
 */
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildIfStale, newestInput } from './build-if-stale.mjs';

const root = await mkdtemp(join(tmpdir(), 'build-if-stale-'));
afterAll(() => rm(root, { recursive: true, force: true }));

/** An example folder whose "build" writes build/out.txt, counting its runs in runs.txt beside the folder. */
async function example(name: string) {
  const dir = join(root, name);
  await mkdir(join(dir, 'src'), { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name, dependencies: {} }));
  await writeFile(join(dir, 'src', 'page.ts'), 'export const page = 1;\n');
  const script = `const fs=require('fs');fs.mkdirSync('build',{recursive:true});fs.writeFileSync('build/out.txt','x');fs.appendFileSync('../${name}.runs','.');console.log('KNOWN NOTICE');console.log('real output')`;
  const build = () =>
    buildIfStale({ dir, output: 'build', command: process.execPath, args: ['-e', script], quiet: [/^KNOWN NOTICE$/] });
  const runs = async () => (await readFile(join(root, `${name}.runs`), 'utf8').catch(() => '')).length;
  return { dir, build, runs };
}

describe('buildIfStale', () => {
  it('builds when there is no build, then skips while nothing changed', async () => {
    const ex = await example('fresh');
    expect(await ex.build()).toBe(true);
    expect(await ex.build()).toBe(false);
    expect(await ex.runs()).toBe(1);
  });

  it('builds again when a source file changes, not when the build output does', async () => {
    const ex = await example('edited');
    await ex.build();
    const later = new Date(Date.now() + 60_000);
    await utimes(join(ex.dir, 'build', 'out.txt'), later, later);
    expect(await ex.build()).toBe(false);
    await utimes(join(ex.dir, 'src', 'page.ts'), later, later);
    expect(await ex.build()).toBe(true);
    expect(await ex.runs()).toBe(2);
  });

  it('counts the sources of linked @framework/* packages as inputs', async () => {
    const ex = await example('linked');
    const pkg = join(root, 'kit-package');
    await mkdir(join(pkg, 'src'), { recursive: true });
    await writeFile(join(pkg, 'package.json'), '{}');
    await writeFile(join(pkg, 'src', 'index.ts'), 'export {};\n');
    await mkdir(join(ex.dir, 'node_modules', '@framework'), { recursive: true });
    const { symlink } = await import('node:fs/promises');
    await symlink(pkg, join(ex.dir, 'node_modules', '@framework', 'kit'));
    await writeFile(join(ex.dir, 'package.json'), JSON.stringify({ dependencies: { '@framework/kit': '0.1.0' } }));
    await ex.build();
    const later = new Date(Date.now() + 120_000);
    await utimes(join(pkg, 'src', 'index.ts'), later, later);
    expect(await newestInput(ex.dir)).toBeCloseTo(later.getTime(), -1);
    expect(await ex.build()).toBe(true);
    // The package's tests and test helpers are no inputs: no build bundles them.
    const latest = new Date(Date.now() + 240_000);
    for (const file of ['index.test.ts', 'fixtures.test-helpers.ts']) {
      await writeFile(join(pkg, 'src', file), 'export {};\n');
      await utimes(join(pkg, 'src', file), latest, latest);
    }
    expect(await ex.build()).toBe(false);
  });

  it("skips the example's .astro and dist folders", async () => {
    const ex = await example('astro');
    await ex.build();
    const later = new Date(Date.now() + 60_000);
    for (const folder of ['.astro', 'dist']) {
      await mkdir(join(ex.dir, folder), { recursive: true });
      await writeFile(join(ex.dir, folder, 'types.d.ts'), 'export {};\n');
      await utimes(join(ex.dir, folder, 'types.d.ts'), later, later);
    }
    expect(await ex.build()).toBe(false);
  });

  it('drops only the lines it is told to', async () => {
    const ex = await example('quiet');
    const written: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      await ex.build();
    } finally {
      spy.mockRestore();
    }
    expect(written.join('')).toContain('real output');
    expect(written.join('')).not.toContain('KNOWN NOTICE');
  });

  it('fails when the build fails, and stays stale', async () => {
    const dir = join(root, 'broken');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'package.json'), '{}');
    const broken = () =>
      buildIfStale({ dir, output: 'build', command: process.execPath, args: ['-e', 'process.exit(3)'] });
    await expect(broken()).rejects.toThrow(/exited with 3/);
    await expect(broken()).rejects.toThrow(/exited with 3/);
  });
});
