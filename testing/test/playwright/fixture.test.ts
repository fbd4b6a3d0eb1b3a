/**
 * `@framework/testing/playwright` under Playwright's own runner: `playwright test` runs signed-in.pw.ts against
 * the app served here, the `signIn` fixture going through the app's testSignInRoute().
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromiumAvailable } from '@framework/example-shared/testing/browser';
import { buildSignedInApp, serveApp, SIGN_IN_SECRET } from '../signed-in-app.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('../../..', import.meta.url));

function playwrightTest(env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      `${root}node_modules/.bin/playwright`,
      ['test', '-c', `${here}playwright.config.ts`],
      { cwd: here, env: { ...process.env, ...env, NODE_OPTIONS: '--conditions=@framework/source' } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

describe.skipIf(!chromiumAvailable('the Playwright fixture test of @framework/testing'))('playwright test', () => {
  const { app } = buildSignedInApp();
  let server: Awaited<ReturnType<typeof serveApp>>;
  beforeAll(async () => {
    server = await serveApp(app);
  });
  afterAll(() => server?.close());

  it('the signIn fixture signs each test in through the route', { timeout: 120_000 }, async () => {
    const run = await playwrightTest({ APP_URL: server.url, TEST_SIGN_IN_SECRET: SIGN_IN_SECRET });
    expect(run.output).toMatch(/2 passed/);
    expect(run.code).toBe(0);
  });

  it('with the wrong secret the fixture fails, naming the route', { timeout: 120_000 }, async () => {
    const run = await playwrightTest({ APP_URL: server.url, TEST_SIGN_IN_SECRET: `${SIGN_IN_SECRET}-wrong` });
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(/add testSignInRoute/);
  });
});
