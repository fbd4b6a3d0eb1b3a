/**
 * The example, created once on first use (not at import: Astro imports server modules while building, when no
 * database should be opened).
 */
import { createWebExample, type WebExample } from '@framework/example-shared/web-example';

let example: Promise<WebExample> | undefined;

/** The running example, created from the environment on the first call. */
export function getExample(): Promise<WebExample> {
  return (example ??= createWebExample(process.env));
}

/** The engine of the example, for the adapter (resolved on the first request). */
export const exampleAuth = async () => (await getExample()).auth;
