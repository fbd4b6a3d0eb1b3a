/**
 * The adapter kit: a request's URL from its parts refuses forged targets and hosts; errors raised outside the kit
 * get a 4xx with the registered code, or a 500, and never their own message.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AUTH_ERRORS } from '../error-codes.js';
import { bodylessRequest, checkRequestTarget, clientErrorOf, requestUrlOf, withSetCookies } from './adapter-kit.js';

describe('requestUrlOf', () => {
  it('builds the URL of an origin-form target on a plain host', () => {
    expect(requestUrlOf({ protocol: 'https', host: 'app.example:8443', target: '/auth/signin?x=1' })).toBe(
      'https://app.example:8443/auth/signin?x=1',
    );
    expect(requestUrlOf({ protocol: 'http', host: '[::1]:3000', target: '/' })).toBe('http://[::1]:3000/');
    expect(requestUrlOf({ protocol: 'http', host: undefined, target: '/' })).toBe('http://localhost/');
  });

  it('answers a URL asked for again as the first time: normalised, per protocol and host, a malformed one refused again', () => {
    for (let round = 0; round < 2; round++) {
      expect(requestUrlOf({ protocol: 'https', host: 'a.example', target: '/x/../y?q=%7e' })).toBe(
        'https://a.example/y?q=%7e',
      );
      expect(requestUrlOf({ protocol: 'https', host: 'b.example', target: '/x/../y?q=%7e' })).toBe(
        'https://b.example/y?q=%7e',
      );
      expect(requestUrlOf({ protocol: 'http', host: 'a.example', target: '/x/../y?q=%7e' })).toBe(
        'http://a.example/y?q=%7e',
      );
      expect(() => requestUrlOf({ protocol: 'http', host: 'a.example:99999', target: '/' })).toThrow();
    }
  });

  it('refuses absolute-form targets and hosts with userinfo, paths, spaces or other characters', () => {
    const cases: [host: string, target: string][] = [
      ['app.example', 'http://evil.example/auth'],
      ['app.example', '*'],
      ['evil.example@app.example', '/'],
      ['app.example/evil', '/'],
      ['app.example evil', '/'],
      ['app.example:99999999', '/'],
      ['app.example\r\nx', '/'],
      ['', '/'],
    ];
    for (const [host, target] of cases)
      expect(() => requestUrlOf({ protocol: 'http', host, target })).toThrow(
        expect.objectContaining({ code: 'INVALID_REQUEST', status: 400 }),
      );
  });

  it('property: any accepted URL keeps the given host and path, and nothing else', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.webPath(), (host, path) => {
        let url: string;
        try {
          url = requestUrlOf({ protocol: 'http', host, target: path.startsWith('/') ? path : `/${path}` });
        } catch {
          return;
        }
        const parsed = new URL(url);
        expect(parsed.username).toBe('');
        expect(parsed.password).toBe('');
        expect(url.startsWith('http://')).toBe(true);
      }),
    );
  });
});

describe('clientErrorOf', () => {
  it('keeps a 4xx status with its registered code, and a fixed message', () => {
    for (const status of [400, 401, 403, 404, 405, 413, 415, 418, 429, 431]) {
      const answer = clientErrorOf(Object.assign(new Error('secret detail'), { statusCode: status }));
      expect(answer.status).toBe(status);
      expect(Object.hasOwn(AUTH_ERRORS, answer.code)).toBe(true);
      expect(
        AUTH_ERRORS[answer.code as keyof typeof AUTH_ERRORS].status === status || answer.code === 'INVALID_REQUEST',
      ).toBe(true);
      expect(answer.message).not.toContain('secret');
    }
  });

  it('anything else is a 500 INTERNAL_ERROR without its message', () => {
    for (const error of [
      new Error('db password is hunter2'),
      { status: 302 },
      { status: 503 },
      null,
      'x',
      { status: '404' },
    ])
      expect(clientErrorOf(error)).toEqual({ status: 500, code: 'INTERNAL_ERROR', message: 'Internal Server Error' });
  });
});

describe('withSetCookies', () => {
  const session = 'framework.session-token=abc; Path=/; HttpOnly; SameSite=Lax';
  const csrf = 'framework.csrf=x; Path=/; HttpOnly';

  it('appends the lines verbatim to a mutable response, without repeating one it carries', async () => {
    const response = new Response('ok', { headers: { 'set-cookie': session } });
    const out = withSetCookies(response, [session, csrf]);
    expect(out).toBe(response);
    expect(out.headers.getSetCookie()).toEqual([session, csrf]);
    expect(withSetCookies(response, [])).toBe(response);
  });

  it('copies an immutable response (a redirect) with its status, headers and body', async () => {
    const redirect = Response.redirect('https://app.example/next', 303);
    const out = withSetCookies(redirect, [session]);
    expect(out).not.toBe(redirect);
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('https://app.example/next');
    expect(out.headers.getSetCookie()).toEqual([session]);
    const fetched = await fetch('data:text/plain,hello');
    const copy = withSetCookies(fetched, [csrf]);
    expect(await copy.text()).toBe('hello');
    expect(copy.headers.getSetCookie()).toEqual([csrf]);
  });
});

describe('checkRequestTarget', () => {
  it('property: refuses exactly what requestUrlOf refuses, asked once or again after another host', () => {
    const hosts = fc.oneof(
      fc.constantFrom('app.example', 'app.example:99999', '[::1]:3000', '', 'a b', 'user@evil.example', '#', undefined),
      fc.string({ maxLength: 20 }),
    );
    const targets = fc.oneof(fc.webPath(), fc.constantFrom('/', 'http://evil.example/', '*', ''));
    fc.assert(
      fc.property(fc.array(fc.tuple(hosts, targets), { minLength: 1, maxLength: 6 }), (requests) => {
        for (const [host, target] of requests) {
          let expected: unknown;
          try {
            requestUrlOf({ protocol: 'http', host, target });
          } catch (e) {
            expected = e;
          }
          if (expected === undefined) expect(() => checkRequestTarget(host, target)).not.toThrow();
          else
            expect(() => checkRequestTarget(host, target)).toThrow(
              expect.objectContaining({ code: 'INVALID_REQUEST', status: 400 }),
            );
        }
      }),
    );
  });
});

describe('bodylessRequest', () => {
  it('takes the URL as a function, called when the Request is built', () => {
    let urls = 0;
    const build = bodylessRequest(
      () => {
        urls++;
        return 'https://app.example/late';
      },
      'GET',
      () => ({}),
    );
    expect(urls).toBe(0);
    expect(build().url).toBe('https://app.example/late');
    build();
    expect(urls).toBe(1);
  });

  it('builds the Request once, on the first call, with the headers read then', () => {
    let reads = 0;
    const build = bodylessRequest('https://app.example/x?y=1', 'POST', () => {
      reads++;
      return { cookie: 'a=b', accept: 'text/html' };
    });
    expect(reads).toBe(0);
    const request = build();
    expect([request.method, request.url, request.headers.get('cookie'), request.body]).toEqual([
      'POST',
      'https://app.example/x?y=1',
      'a=b',
      null,
    ]);
    expect(build()).toBe(request);
    expect(reads).toBe(1);
  });

  it('refuses at once, with INVALID_REQUEST, the methods a Web Request cannot carry', () => {
    for (const method of ['TRACE', 'CONNECT', 'track', 'Trace']) {
      expect(() => bodylessRequest('https://app.example/', method, () => ({})), method).toThrow(
        expect.objectContaining({ code: 'INVALID_REQUEST', status: 400 }),
      );
    }
    for (const method of ['GET', 'HEAD', 'DELETE', 'PATCH', 'PROPFIND', 'TRACES']) {
      expect(bodylessRequest('https://app.example/', method, () => ({}))().method).toBe(method);
    }
  });
});
