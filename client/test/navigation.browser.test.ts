/**
 * `signIn` / `signOut` in a real Chromium (playwright-core, Debian's
 * /usr/bin/chromium): a page on a local server loads the client bundle, the
 * server's auth answers carry hostile URLs, and the page must never leave its
 * origin or run a `javascript:` URL; it lands on `/` instead. Without
 * Chromium the tests are skipped with a message, except under CI=true.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientScript } from './client-bundle.js';
import { chromiumAvailable, launchChromium } from '@framework/example-shared/testing/browser';

const available = chromiumAvailable('the navigation tests of the auth client');

/** The URL the fake auth routes answer with, set by each test. */
let answerUrl = '/';

function page(body: string): string {
  return `<!doctype html><title>${body}</title><script src="/client.js"></script><p id="where">${body}</p>`;
}

describe.skipIf(!available)('auth client navigation in Chromium', () => {
  let server: Server;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    const script = await clientScript();
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/client.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      if (path === '/auth/csrf')
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"csrfToken":"tok"}');
      if (path === '/auth/session') return void res.writeHead(200, { 'content-type': 'application/json' }).end('null');
      if (path === '/auth/callback/credentials' || path === '/auth/signout') {
        req.resume();
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ ok: true, url: answerUrl }));
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end(page(path));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  async function act(tab: Page, action: 'signIn' | 'signOut', url: string): Promise<void> {
    answerUrl = url;
    await tab.goto(`${base}/start`);
    const navigated = tab.waitForURL((u) => u.pathname !== '/start', { timeout: 5000 }).catch(() => undefined);
    // The navigation the action starts may tear down the page before evaluate returns: that is the expected outcome.
    await tab
      .evaluate(async (which) => {
        const client = (window as unknown as { authClient: Record<string, (...args: unknown[]) => Promise<unknown>> })
          .authClient;
        await (which === 'signIn'
          ? client.signIn!('credentials', { email: 'a@example.com', password: 'pw' })
          : client.signOut!());
      }, action)
      .catch((error: unknown) => {
        if (!/Execution context was destroyed|navigation/i.test(String(error))) throw error;
      });
    await navigated;
    await tab.waitForLoadState();
  }

  for (const action of ['signIn', 'signOut'] as const) {
    it(`${action} refuses javascript: and off-origin URLs and goes to / instead`, async () => {
      const tab = await browser.newPage();
      const hostile = [
        'javascript:document.title="pwned"',
        '//evil.example/x',
        '/\\evil.example/x',
        'https://evil.example/x',
        'http://127.0.0.1.evil.example/',
      ];
      for (const url of hostile) {
        await act(tab, action, url);
        expect(new URL(tab.url()).origin, url).toBe(base);
        expect(new URL(tab.url()).pathname, url).toBe('/');
        expect(await tab.title(), url).not.toBe('pwned');
      }
      await act(tab, action, '/dashboard?tab=1');
      expect(tab.url()).toBe(`${base}/dashboard?tab=1`);
      await tab.close();
    }, 60_000);
  }
});
