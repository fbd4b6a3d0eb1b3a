/**
 * `PluginRoute.body: 'json'`: the engine reads the JSON body itself, arrays and nested values kept, into
 * `ctx.json`, with the same size limit and content-type check as form routes; other routes still refuse arrays.
 */
import { describe, expect, it } from 'vitest';
import { createAuth } from '../auth.js';
import { createMemoryAdapter } from '../storage/memory.js';
import { ORIGIN, SECRET } from '../testing/fixtures.js';
import type { AuthPlugin } from '../contract/types.js';

/** Two routes answering what they were handed: `json-echo` opts in to JSON, `form-echo` does not. */
const echo = (): AuthPlugin<'echo'> => ({
  id: 'echo',
  routes: {
    'json-echo': {
      POST: async (ctx) => ({ status: 200, json: { json: ctx.json ?? null, body: ctx.body } }),
      csrf: 'none',
      body: 'json',
    },
    'form-echo': {
      POST: async (ctx) => ({ status: 200, json: { json: ctx.json ?? null, body: ctx.body } }),
      csrf: 'none',
    },
  },
});

const auth = createAuth({
  secret: SECRET,
  baseURL: ORIGIN,
  adapter: createMemoryAdapter(),
  providers: [],
  logger: { error: () => {}, warn: () => {} },
  plugins: [echo()],
});

const post = (path: string, body: string, type = 'application/json') =>
  auth.handler(
    new Request(`${ORIGIN}/auth/${path}`, {
      method: 'POST',
      headers: { 'content-type': type, accept: 'application/json' },
      body,
    }),
  );

describe("PluginRoute body: 'json'", () => {
  it('hands arrays and nested objects to an opted-in route as ctx.json', async () => {
    const value = { redirect_uris: ['https://a.example/cb'], nested: { n: 1 } };
    const res = await post('json-echo', JSON.stringify(value));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ json: value, body: {} });
    const list = await post('json-echo', '[1,2]');
    expect(((await list.json()) as { json: unknown }).json).toEqual([1, 2]);
  });

  it('still refuses arrays on a route that did not opt in', async () => {
    const res = await post('form-echo', JSON.stringify({ redirect_uris: ['https://a.example/cb'] }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('INVALID_REQUEST');
  });

  it('keeps the size limit: 413', async () => {
    const res = await post('json-echo', JSON.stringify({ pad: 'a'.repeat(70 * 1024) }));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses another content type with 415 and malformed JSON with 400', async () => {
    const form = await post('json-echo', 'a=1', 'application/x-www-form-urlencoded');
    expect(form.status).toBe(415);
    expect(((await form.json()) as { error: { code: string } }).error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const bad = await post('json-echo', '{"a":');
    expect(bad.status).toBe(400);
    const empty = await post('json-echo', '');
    expect(empty.status).toBe(400);
  });
});
