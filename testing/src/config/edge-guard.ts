/**
 * A Vite plugin for edge test runs: importing a Node.js built-in module
 * (`node:fs`, `path`, …) from the app's own code fails the test file, as it
 * would fail on an edge runtime. Dependencies (paths under `node_modules`)
 * are left alone, as are the built-ins in `allow`.
 * @module
 */
import type { Plugin } from 'vitest/config';

/** Options of {@link edgeGuard}. */
export interface EdgeGuardOptions {
  /** Built-ins your edge runtime provides, e.g. `['async_hooks', 'buffer']` (without `node:`). */
  allow?: readonly string[];
  /** Path fragments whose files may import anything. Default `['/node_modules/']`. */
  trusted?: readonly string[];
  /** The Node built-in module names. */
  builtins: readonly string[];
}

interface ImportNode {
  type: string;
  source?: { value?: unknown } | null;
}

/** The module names a top-level statement imports or re-exports. */
function sourceOf(node: ImportNode): string | undefined {
  const value = node.source?.value;
  return typeof value === 'string' ? value : undefined;
}

/**
 * Creates the plugin. `defineTestConfig({environment: 'edge'})` adds it.
 *
 * @example
 * ```ts
 * import { builtinModules } from 'node:module';
 * export default { plugins: [edgeGuard({ builtins: builtinModules, allow: ['async_hooks'] })] };
 * ```
 */
export function edgeGuard(options: EdgeGuardOptions): Plugin {
  const builtins = new Set(options.builtins.map((name) => name.replace(/^node:/, '')));
  const allow = new Set(options.allow ?? []);
  const trusted = options.trusted ?? ['/node_modules/'];
  const isNodeOnly = (specifier: string) => {
    const bare = specifier.startsWith('node:') ? specifier.slice(5) : specifier;
    const root = bare.split('/')[0] ?? bare;
    return (specifier.startsWith('node:') || builtins.has(root)) && !allow.has(root);
  };
  return {
    name: 'framework-testing:edge-guard',
    enforce: 'post',
    transform(code, id) {
      const path = id.split('?')[0] ?? id;
      if (trusted.some((fragment) => path.includes(fragment)) || !/\.[cm]?[jt]sx?$/.test(path)) return null;
      const program = this.parse(code) as unknown as { body: ImportNode[] };
      const dynamic = [...code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!);
      const found = [...program.body.map(sourceOf), ...dynamic].find(
        (s): s is string => s !== undefined && isNodeOnly(s),
      );
      if (found) {
        this.error(
          `"${found}" is a Node.js built-in module, which edge runtimes do not provide (imported by ${path}). Use a Web API, or test this file with defineTestConfig({ environment: 'node' }).`,
        );
      }
      return null;
    },
  };
}
