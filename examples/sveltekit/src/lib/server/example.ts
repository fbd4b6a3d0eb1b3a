/**
 * The example, created once on first use (not at import: SvelteKit imports
 * server modules while building, when no database should be opened).
 */
import { env } from '$env/dynamic/private';
import { createWebExample, type WebExample } from '@framework/example-shared/web-example';

let example: Promise<WebExample> | undefined;

/** The running example, created from the environment on the first call. */
export function getExample(): Promise<WebExample> {
  return (example ??= createWebExample(env));
}
