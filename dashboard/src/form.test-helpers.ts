/** Test helpers: the dashboard's triggers page with its CSRF token and cookie, and its url-encoded POSTs. */
import { expect } from 'vitest';
import type { Dashboard } from './dashboard.js';

export const ORIGIN = 'http://localhost:3000';
export const LOCAL = { ip: '127.0.0.1' };

/** Reads a page (default the triggers page) from loopback: its HTML, CSRF token and session cookie. */
export async function readPage(
  dashboard: Dashboard,
  path = '/_framework/',
): Promise<{ html: string; token: string; cookie: string }> {
  const res = await dashboard.fetch(new Request(`${ORIGIN}${path}`, { headers: { accept: 'text/html' } }), LOCAL);
  expect(res?.status).toBe(200);
  const html = await res!.text();
  const token = /name="csrfToken" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const cookie = (res!.headers.get('set-cookie') ?? '').split(';')[0]!;
  return { html, token, cookie };
}

/** POSTs `fields` as a url-encoded form from the dashboard's own origin (headers may override). */
export function postForm(
  dashboard: Dashboard,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string>,
) {
  return dashboard.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, ...headers },
      body: new URLSearchParams(fields).toString(),
    }),
    LOCAL,
  );
}
