/**
 * The Nuxt example, built with `nuxt build` and run as Nitro's node server: the adapter conformance suite over
 * HTTP (with the hostile-input cases) and a Chromium sign-in through the Vue store component.
 */
import { startBuiltApp } from './built-app.js';
import { runExampleSuite } from '@framework/example-shared/testing/example-suite';

runExampleSuite({
  name: 'nuxt (node-server build)',
  start: () => startBuiltApp('app'),
  screenshot: 'nuxt-signed-in',
});
