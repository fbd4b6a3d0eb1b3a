/** Every ```ts block of the docs typechecks against the packages' public entry points. */
import { describe, expect, it } from 'vitest';
import { allSnippets, checkSnippets, snippetsOf } from './readme-snippets.js';

describe('README snippets', () => {
  it('there are snippets to check, from every package README', () => {
    const files = new Set(allSnippets().map((s) => s.file));
    for (const readme of ['README.md', 'core/README.md', 'triggers/README.md', 'adapters/hono/README.md']) {
      expect(files).toContain(readme);
    }
  });

  it('finds blocks indented inside list items, without their indent', () => {
    const text = [
      '- A step:',
      '',
      '  ```ts',
      '  const a = 1;',
      '    const b = a;',
      '  ```',
      '',
      '```ts',
      'x;',
      '```',
    ].join('\n');
    expect(snippetsOf('list.md', text)).toEqual([
      { file: 'list.md', line: 4, code: 'const a = 1;\n  const b = a;' },
      { file: 'list.md', line: 9, code: 'x;' },
    ]);
  });

  it('all typecheck', () => {
    expect(checkSnippets(allSnippets())).toEqual([]);
  }, 120_000);

  it('the check catches a wrong import and a wrong option (so it can fail)', () => {
    const problems = checkSnippets([
      { file: 'probe.md', line: 1, code: "import { notAnExport } from '@framework/auth';" },
      {
        file: 'probe.md',
        line: 10,
        code: "import { createAuth } from '@framework/auth';\ncreateAuth({ secret: 's', sesion: {} });",
      },
      { file: 'probe.md', line: 20, code: "import { db } from './db';\nawait db.query(app);" },
    ]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^probe\.md:1: TS2305 .*notAnExport/);
    expect(problems[1]).toMatch(/^probe\.md:11: TS2561 .*'sesion'/);
  }, 60_000);

  it('the check catches a kit function used without its import, in the docs it holds to that', () => {
    const code = [
      "import { createAuth } from '@framework/auth';",
      'const storage = createFixedWindowStorage();',
      'createAuth({ rateLimit: { login: createLoginRateLimiter(storage, { trustProxy: 1 }) }, ...rest });',
      'app.use(authorize({ role: "admin" }));',
    ].join('\n');
    const problems = checkSnippets([{ file: 'probe.md', line: 1, code }], new Set(['probe.md']));
    expect(problems).toEqual([
      expect.stringMatching(/^probe\.md:2: TS2304 .*'createFixedWindowStorage'/),
      expect.stringMatching(/^probe\.md:3: TS2304 .*'createLoginRateLimiter'/),
      expect.stringMatching(/^probe\.md:4: TS2304 .*'authorize'/),
    ]);
    // The reader's own names (`rest`, `app`) stay allowed, and other docs are not held to it yet.
    expect(checkSnippets([{ file: 'other.md', line: 1, code }], new Set(['probe.md']))).toEqual([]);
  }, 60_000);
});
