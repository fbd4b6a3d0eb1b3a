/**
 * Requests the kit's auth routes take from a browser or a JSON client, sent through a test context: a fresh CSRF
 * token in each POST. Shared by the mail and matcher tests.
 * @module
 */
import type { TestContext } from '../context/types.js';

async function csrf(ctx: TestContext): Promise<string> {
  return ((await (await ctx.fetch('/auth/csrf')).json()) as { csrfToken: string }).csrfToken;
}

/** POSTs JSON (`accept: application/json`) with a fresh CSRF token. */
export async function postJson(ctx: TestContext, path: string, body: Record<string, unknown>): Promise<Response> {
  const csrfToken = await csrf(ctx);
  return ctx.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ csrfToken, ...body }),
  });
}

/** POSTs an HTML form (`accept: text/html`) with a fresh CSRF token. */
export async function postForm(ctx: TestContext, path: string, fields: Record<string, string>): Promise<Response> {
  const csrfToken = await csrf(ctx);
  return ctx.fetch(path, {
    method: 'POST',
    headers: { accept: 'text/html' },
    body: new URLSearchParams({ csrfToken, ...fields }),
  });
}

/** The path and query of an emailed link, to fetch on the test context. */
export const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

export const PASSWORD = 'correct horse battery';
