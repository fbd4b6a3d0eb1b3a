/**
 * The SvelteKit example, built with `vite build` and run as adapter-node's
 * server: the adapter conformance suite over HTTP and a Chromium sign-in
 * through the Svelte store component.
 */
import { startBuiltApp } from './built-app.js';
import { runExampleSuite } from '@framework/example-shared/testing/example-suite';

runExampleSuite({
  name: 'sveltekit (adapter-node build)',
  start: () => startBuiltApp('app'),
  screenshot: 'sveltekit-signed-in',
});
