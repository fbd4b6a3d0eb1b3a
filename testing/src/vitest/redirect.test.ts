/** `toRedirectTo`: 3xx to a path on the app's origin; an open redirect to another site never passes. */
import { afterAll, describe, expect, it } from 'vitest';
import '../vitest.js';
import { configureMatchers } from './defaults.js';
import { createTestContext } from '../context/create-test-context.js';
import { PASSWORD, postForm } from '../__fixtures__/kit-requests.js';

const redirect = (location: string, status = 302) => new Response(null, { status, headers: { location } });

describe('toRedirectTo', async () => {
  const ctx = await createTestContext({ origin: 'http://app.test' });
  afterAll(() => ctx.cleanup());

  it("passes for the kit's own redirect (a form sign-up goes to its callbackUrl)", async () => {
    const res = await postForm(ctx, '/auth/signup', {
      email: 'ada@example.com',
      password: PASSWORD,
      callbackUrl: '/welcome?tour=1',
    });
    expect(res).toRedirectTo('/welcome');
    expect(res).toRedirectTo('/welcome?tour=1');
    expect(res).toRedirectTo('http://app.test/welcome');
    expect(() => expect(res).toRedirectTo('/dashboard')).toThrow(
      'expected the response to redirect to /dashboard, but it redirects to /welcome?tour=1',
    );
    expect(() => expect(res).not.toRedirectTo('/welcome')).toThrow(
      'expected the response not to redirect to /welcome, but it does',
    );
  });

  it('matches a relative or absolute Location on the origin, and the query only when given', () => {
    const origin = { origin: 'http://app.test' };
    expect(redirect('/a?next=%2Fb')).toRedirectTo('/a', origin);
    expect(redirect('http://app.test/a', 303)).toRedirectTo('/a', origin);
    expect(() => expect(redirect('/a?x=1')).toRedirectTo('/a?x=2', origin)).toThrow('but it redirects to /a?x=1');
  });

  it('never passes a Location on another origin for a path (open redirects)', () => {
    for (const location of [
      'https://evil.example/a',
      '//evil.example/a',
      '/\\evil.example/a',
      'http://app.test.evil.example/a',
      'https://app.test/a',
    ]) {
      expect(() => expect(redirect(location)).toRedirectTo('/a', { origin: 'http://app.test' })).toThrow(
        /off the origin http:\/\/app\.test/,
      );
    }
    // an expected absolute URL elsewhere (a provider's authorize URL) is matched on its own origin
    expect(redirect('https://idp.example/authorize?x=1')).toRedirectTo('https://idp.example/authorize');
  });

  it('fails for a non-redirect, a 3xx without Location, and refuses what is not a Response', () => {
    expect(() => expect(new Response('ok')).toRedirectTo('/')).toThrow(
      'expected the response to redirect to /, but its status is 200',
    );
    expect(() => expect(new Response(null, { status: 304 })).toRedirectTo('/')).toThrow(
      'its status is 304 without a Location header',
    );
    expect(() => expect('/a').toRedirectTo('/a')).toThrow('toRedirectTo: expected a Response');
  });

  it('resolves a relative Location against configureMatchers({ origin }), default http://localhost', () => {
    expect(redirect('http://localhost/a')).toRedirectTo('/a');
    const restore = configureMatchers({ origin: 'https://shop.example' });
    try {
      expect(redirect('https://shop.example/cart')).toRedirectTo('/cart');
      expect(() => expect(redirect('http://localhost/cart')).toRedirectTo('/cart')).toThrow(/off the origin/);
    } finally {
      restore();
    }
  });
});
