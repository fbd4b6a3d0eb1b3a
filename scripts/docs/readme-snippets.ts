/**
 * Typechecks the TypeScript examples in the docs against the packages' public entry points: every ```ts block of
 * the READMEs (and core/PLUGINS.md) becomes a module of its own, compiled with the TypeScript compiler under
 * `strict`. Imports resolve through the package exports with the workspace `@framework/source` condition, so
 * no build is needed (`npm run check:packages` typechecks the built declarations themselves).
 *
 * Snippets are fragments, so names they use without declaring (`app`, `auth`, `env`, ...) and imports of the
 * reader's own files are allowed; everything else must hold: the kit's imports must exist, a name the kit exports
 * must be imported where it is used, and calls into the kit must match its types.
 * @module
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const REPO = resolve(import.meta.dirname, '../..');

/** One ```ts block: where it is and what it says. */
export interface Snippet {
  file: string;
  line: number;
  code: string;
}

/** The docs whose snippets are checked: every README.md tracked by git, and the plugin guide. */
export function docFiles(): string[] {
  const tracked = execFileSync('git', ['ls-files', '*.md'], { cwd: REPO, encoding: 'utf8' }).split('\n');
  return tracked
    .filter((f) => /(^|\/)README\.md$/.test(f) || f === 'core/PLUGINS.md')
    .filter((f) => !/^examples\//.test(f));
}

/** The ```ts blocks of a markdown text, including blocks indented inside list items (the indent is removed). */
export function snippetsOf(file: string, text: string): Snippet[] {
  const out: Snippet[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)```ts\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^ *```\s*$/.test(lines[end]!)) end++;
    const code = lines.slice(start, end).map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line));
    out.push({ file, line: start + 1, code: code.join('\n') });
    i = end;
  }
  return out;
}

/** Diagnostics a fragment may have: names and local modules the reader supplies. */
const ALLOWED = new Set([
  2304, // Cannot find name 'x'.
  2552, // Cannot find name 'x'. Did you mean 'y'?
  18004, // No value exists in scope for the shorthand property 'x'.
  2582, // Cannot find name 'describe' (test snippets without vitest globals)
  2593, // Cannot find name 'it'
]);

function allowed(d: ts.Diagnostic): boolean {
  if (ALLOWED.has(d.code)) return true;
  // An import of the reader's own module ('./db', '$lib/server/auth', '~/auth.server').
  if (d.code === 2307 || d.code === 2792) {
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    return !/'@framework\//.test(text);
  }
  return false;
}

/** Every public entry point of the workspace packages (`@framework/auth/rate-limit`, ...), examples excepted. */
function kitEntryPoints(): string[] {
  const { workspaces } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { workspaces: string[] };
  return workspaces
    .filter((w) => !w.startsWith('examples/'))
    .flatMap((w) => {
      const pkg = JSON.parse(readFileSync(join(REPO, w, 'package.json'), 'utf8')) as { name: string; exports?: object };
      return Object.keys(pkg.exports ?? {})
        .filter((key) => key !== './package.json')
        .map((key) => pkg.name + key.slice(1));
    });
}

/** The names the kit's entry points export: a snippet using one must import it (a reader cannot guess where from). */
function kitExportNames(program: ts.Program, file: string): Set<string> {
  const checker = program.getTypeChecker();
  const names = new Set<string>();
  for (const statement of program.getSourceFile(file)?.statements ?? []) {
    if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier) continue;
    const module = checker.getSymbolAtLocation(statement.moduleSpecifier);
    if (module) for (const symbol of checker.getExportsOfModule(module)) names.add(symbol.name);
  }
  return names;
}

/**
 * The problems of every snippet, as `file:line: message` lines (empty when all typecheck). A kit export used
 * without its import is one (a reader cannot guess where `createLoginRateLimiter` comes from), in every doc or only
 * in those of `importsChecked`.
 */
export function checkSnippets(snippets: Snippet[], importsChecked: ReadonlySet<string> | 'all' = 'all'): string[] {
  // A folder of this run's own (inside the repository, so imports resolve through its node_modules): two runs at
  // once never share one.
  mkdirSync(join(REPO, '.cache'), { recursive: true });
  const dir = mkdtempSync(join(REPO, '.cache', 'doc-snippets-'));
  try {
    return checkIn(dir, snippets, importsChecked);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** {@link checkSnippets} with the snippet modules written to `dir`. */
function checkIn(dir: string, snippets: Snippet[], importsChecked: ReadonlySet<string> | 'all'): string[] {
  const origin = new Map<string, Snippet>();
  snippets.forEach((s, i) => {
    const path = join(dir, `s${i}.ts`);
    writeFileSync(path, `${s.code}\nexport {};\n`);
    origin.set(path, s);
  });
  const kit = join(dir, 'kit-exports.ts');
  writeFileSync(
    kit,
    kitEntryPoints()
      .map((entry, i) => `export * as e${i} from '${entry}';\n`)
      .join(''),
  );
  const program = ts.createProgram([...origin.keys(), kit], {
    strict: true,
    noImplicitAny: false,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    customConditions: ['@framework/source'],
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: ['node'],
    jsx: ts.JsxEmit.ReactJSX,
  });
  const kitNames = kitExportNames(program, kit);
  const problems: string[] = [];
  for (const d of ts.getPreEmitDiagnostics(program)) {
    if (!d.file) continue;
    const s = origin.get(resolve(d.file.fileName));
    if (!s) continue;
    const unimported =
      (importsChecked === 'all' || importsChecked.has(s.file)) &&
      (d.code === 2304 || d.code === 2552) &&
      kitNames.has(ts.flattenDiagnosticMessageText(d.messageText, ' ').split("'")[1] ?? '');
    if (allowed(d) && !unimported) continue;
    const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
    problems.push(`${s.file}:${s.line + line}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
  }
  return problems;
}

/** Every snippet of the docs. */
export function allSnippets(): Snippet[] {
  return docFiles().flatMap((file) =>
    snippetsOf(relative(REPO, join(REPO, file)), readFileSync(join(REPO, file), 'utf8')),
  );
}
