/**
 * The example apps' nav bars must link only to pages the app serves: every
 * `<nav>` link of a page answers something other than 404 (and no 5xx).
 */
import { expect } from 'vitest';

/** The `href`s of the links inside the page's `<nav>` elements, in order. */
export function navHrefs(html: string): string[] {
  const navs = [...html.matchAll(/<nav\b[^>]*>([\s\S]*?)<\/nav>/g)].map((m) => m[1]!);
  return navs.flatMap((nav) => [...nav.matchAll(/<a\b[^>]*\bhref="([^"]+)"/g)].map((m) => m[1]!));
}

/**
 * Fetches `page` with `fetchPage`, then every nav link on it (as a browser, redirects not followed), and
 * expects each to be served: a status under 400 or a deliberate 401/403, never 404 or 5xx.
 */
export async function expectNavLinksServed(
  fetchPage: (path: string, init?: RequestInit) => Promise<Response>,
  page = '/',
): Promise<string[]> {
  const html = await (await fetchPage(page, { headers: { accept: 'text/html' } })).text();
  const hrefs = navHrefs(html);
  expect(hrefs.length).toBeGreaterThan(0);
  const dead: string[] = [];
  for (const href of hrefs) {
    const res = await fetchPage(href, { headers: { accept: 'text/html' } });
    if (res.status === 404 || res.status >= 500) dead.push(`${href} → ${res.status}`);
  }
  expect(dead).toEqual([]);
  return hrefs;
}
