/**
 * The README's sample suites (each block after a `<!-- sample: <file> -->` marker) are this package's files,
 * character for character, so the documentation cannot drift from code that runs in CI.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFile(new URL(path, import.meta.url), 'utf8');

/** The fenced block right after `<!-- sample: <file> -->`, or null. */
function sampleBlock(markdown: string, file: string): string | null {
  const marker = `<!-- sample: ${file} -->\n\`\`\`ts\n`;
  const start = markdown.indexOf(marker);
  if (start < 0) return null;
  const body = start + marker.length;
  const end = markdown.indexOf('\n```\n', body - 1);
  return end < 0 ? null : markdown.slice(body, end + 1);
}

describe('README', () => {
  it('prints test/readme-sample.test.ts verbatim', async () => {
    const [readme, sample] = await Promise.all([read('../README.md'), read('./readme-sample.test.ts')]);
    expect(sampleBlock(readme, 'test/readme-sample.test.ts')).toBe(sample);
  });

  it('prints test/testing-your-app.test.ts verbatim', async () => {
    const [readme, sample] = await Promise.all([read('../README.md'), read('./testing-your-app.test.ts')]);
    expect(sampleBlock(readme, 'test/testing-your-app.test.ts')).toBe(sample);
  });

  it('prints every marked sample verbatim: one suite per adapter among them', async () => {
    const readme = await read('../README.md');
    const files = [...readme.matchAll(/<!-- sample: (\S+) -->/g)].map((m) => m[1]!);
    expect(files).toEqual(expect.arrayContaining(['test/samples/hono.test.ts', 'test/samples/express.test.ts']));
    expect(files).toContain('test/samples/react-router.test.ts');
    for (const file of files) expect(sampleBlock(readme, file), file).toBe(await read(`../${file}`));
  });

  it('finds only the marked block', () => {
    expect(sampleBlock('no marker here', 'x.ts')).toBeNull();
    expect(sampleBlock('<!-- sample: x.ts -->\n```ts\nconst a = 1;\n```\n', 'x.ts')).toBe('const a = 1;\n');
  });
});
