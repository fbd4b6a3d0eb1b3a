/**
 * The Astro example, built with `astro build` and run as @astrojs/node's standalone server: the adapter
 * conformance suite over HTTP (with the hostile-input cases) and a Chromium sign-in through the page's store.
 */
import { startBuiltApp } from './built-app.js';
import { runExampleSuite } from '@framework/example-shared/testing/example-suite';

runExampleSuite({
  name: 'astro (node standalone build)',
  start: () => startBuiltApp('app'),
  screenshot: 'astro-signed-in',
});
