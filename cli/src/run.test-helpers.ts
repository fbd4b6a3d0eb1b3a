/** Runs the CLI in-process, as the tests of `@framework/cli` do, capturing its output. */
import { runCli } from './index.js';

/** The package folder (`cli/`). */
export const packageRoot = new URL('../', import.meta.url).pathname;
/** A trigger directory: `hook` (webhook), `mailer` (queue), `nightly` (scheduled) and a skipped helper. */
export const fixtures = new URL('./__fixtures__/triggers/', import.meta.url).pathname;
/** The repo's tsx, to run `bin/framework.mjs` on the sources in a child process. */
export const tsx = new URL('../../node_modules/.bin/tsx', import.meta.url).pathname;

/** `framework ...argv` in-process (cwd: the package folder): the exit code and what it wrote. */
export async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    cwd: packageRoot,
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
  });
  return { code, stdout, stderr };
}
