/**
 * The React Router example, built with `react-router build` and run by its
 * own Node server: the adapter conformance suite over HTTP (a 403 is the
 * error boundary's page) and a Chromium sign-in through the React store
 * component.
 */
import { runExampleSuite } from '@framework/example-shared/testing/example-suite';
import { startBuiltApp } from './built-app.js';

runExampleSuite({
  name: 'react router (built, node server)',
  start: () => startBuiltApp('app'),
  screenshot: 'remix-signed-in',
  forbiddenPage: true,
});
