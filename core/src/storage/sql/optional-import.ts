/**
 * Loading of optional peer dependencies (`better-sqlite3`, `pg`, `mysql2`) on first use,
 * so that the core loads without them.
 * @module
 * @internal
 */

/** The error thrown when an optional dependency cannot be loaded. */
export interface MissingDependencyError extends Error {
  code: 'MISSING_DEPENDENCY';
  /** The npm package to install. */
  dependency: string;
}

/**
 * Runs `load` (a dynamic `import()` of `name`).
 * @throws MissingDependencyError (`code: 'MISSING_DEPENDENCY'`) naming the
 * package to install, with the original error as `cause`.
 */
export async function importOptional<T>(name: string, user: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (cause) {
    const error = new Error(
      `${user} needs the optional dependency "${name}", which could not be loaded. Install it with \`npm install ${name}\`.`,
      { cause },
    );
    throw Object.assign(error, { code: 'MISSING_DEPENDENCY' as const, dependency: name });
  }
}

/**
 * `import(name)` of an optional driver, written so that bundlers (esbuild, Rollup/Vite, webpack) do not follow
 * it: an app that never creates that adapter bundles without the driver installed, and one that does either
 * keeps the driver in `node_modules` beside its bundle or hands the adapter a pool it made itself (`pool`).
 */
export function importPackage<T>(name: string): Promise<T> {
  return import(/* webpackIgnore: true */ /* @vite-ignore */ name) as Promise<T>;
}
