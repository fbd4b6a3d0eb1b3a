/**
 * The core's module graph has no cycle, type-only imports included: the shared contract types sit at the bottom
 * (`contract/`), and every layer above imports downwards only.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = dirname(fileURLToPath(import.meta.url));
const SPECIFIER = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/g;
const DYNAMIC = /import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.ts$/.test(name) && !/\.test(-helpers)?\.ts$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Relative imports of a file (static, re-exports, type-only and dynamic), as source file paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(SPECIFIER), ...text.matchAll(DYNAMIC)].map((m) => m[1]!);
  return specs.map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')));
}

/** Strongly connected components of more than one file (Tarjan), or a file importing itself. */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) visit(v);
  return found;
}

describe('core/src import graph', () => {
  const files = sourceFiles(root);
  const graph = new Map(files.map((f) => [f, importsOf(f)]));

  it('reads the imports it checks (the scan is not empty)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(graph.get(join(root, 'index.ts'))!.length).toBeGreaterThan(10);
  });

  it('has no import cycle, type-only imports included', () => {
    const found = cycles(graph).map((c) => c.map((f) => relative(root, f)));
    expect(found).toEqual([]);
  });

  it('finds a cycle when there is one (the checker itself)', () => {
    const a = join(root, 'a.ts');
    const b = join(root, 'b.ts');
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toEqual([[a, b]]);
  });
});
