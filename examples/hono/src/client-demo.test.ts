import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { mountClientDemo } from './client-demo.js';

describe('mountClientDemo', () => {
  const app = mountClientDemo(new Hono());

  it('serves the page, which loads the script as a module', async () => {
    const res = await app.request('/client-demo');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<script type="module" src="/client-demo.js">');
    expect(html).toContain('<strong id="status">loading</strong>');
  });

  it('serves the client bundled for browsers, once', async () => {
    const res = await app.request('/client-demo.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/javascript');
    const code = await res.text();
    expect(code).toContain('/csrf');
    expect(code).not.toContain('process.env');
    expect(await (await app.request('/client-demo.js')).text()).toBe(code);
  });

  it('takes another path', async () => {
    const other = mountClientDemo(new Hono(), { path: '/demo' });
    expect((await other.request('/demo')).status).toBe(200);
    expect(await (await other.request('/demo')).text()).toContain('src="/demo.js"');
  });
});
