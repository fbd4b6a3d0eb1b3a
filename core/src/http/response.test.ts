import { describe, expect, it } from 'vitest';
import { PAGE_SECURITY_HEADERS, toWebResponse, withSecurityHeaders } from './response.js';

describe('toWebResponse security headers', () => {
  const shapes = {
    json: { status: 200, json: { ok: true } },
    html: { status: 200, html: '<p>hi</p>' },
    redirect: { status: 303, redirect: '/' },
    text: { status: 200, text: 'x', contentType: 'text/javascript' },
  };

  for (const [name, result] of Object.entries(shapes)) {
    it(`sends nosniff, a same-origin Referrer-Policy and no-store on a ${name} answer`, () => {
      const res = toWebResponse(result);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('same-origin');
      expect(res.headers.get('cache-control')).toBe('no-store');
    });
  }

  it('forbids framing of HTML pages', () => {
    const res = toWebResponse(shapes.html);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it("keeps a route's own Referrer-Policy and Cache-Control", () => {
    const res = toWebResponse({
      status: 200,
      json: null,
      headers: { 'referrer-policy': 'same-origin', 'cache-control': 'private, max-age=60' },
    });
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    expect(res.headers.get('cache-control')).toBe('private, max-age=60');
  });
});

describe('withSecurityHeaders', () => {
  it('adds the page headers a response lacks and keeps its own', () => {
    const res = withSecurityHeaders(new Response('<p>x</p>', { headers: { 'cache-control': 'private, max-age=5' } }));
    expect(res.headers.get('cache-control')).toBe('private, max-age=5');
    for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS))
      if (name !== 'cache-control') expect(res.headers.get(name)).toBe(value);
  });

  it('copies a response whose headers are immutable', () => {
    const res = withSecurityHeaders(Response.redirect('http://localhost/next', 303));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('http://localhost/next');
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
  });
});
