/**
 * `twoFactor()`'s pages in the request's language: the settings page, its notices, and a refused code on the sign-in
 * prompt, while the JSON codes stay the same.
 */
import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import { makeFixture, PASSWORD } from '../../testing/fixtures.js';
import { createMemoryTwoFactorStorage } from './storage/memory.js';
import { twoFactor } from './plugin.js';

const page = { accept: 'text/html' };

describe('twoFactor() pages in other languages', async () => {
  const f = await makeFixture('database', {
    plugins: [twoFactor({ storage: createMemoryTwoFactorStorage(), issuer: 'Acme' })],
  });
  await f.adapter.updateUser(f.userId, { emailVerified: new Date() });

  it('shows the settings page in German, and the notice after turning it on', async () => {
    const c = f.client();
    await c.signIn();
    const off = await c.request('/auth/two-factor', { headers: { ...page, 'accept-language': 'de-CH,en;q=0.5' } });
    const html = await off.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('<h1>Zwei-Faktor-Authentifizierung</h1>');
    expect(html).toContain('Die Zwei-Faktor-Authentifizierung ist aus.');
    expect(off.headers.get('content-language')).toBe('de');

    const enabled = await c.postJson('/auth/two-factor/enable', { password: PASSWORD });
    const totp = OTPAuth.URI.parse(((await enabled.json()) as { totpURI: string }).totpURI) as OTPAuth.TOTP;
    const on = await c.postForm('/auth/two-factor/confirm', { code: totp.generate() }, { 'accept-language': 'ja' });
    const shown = await on.text();
    expect(shown).toContain('<p role="status">2要素認証をオンにしました。</p>');
    expect(shown).toContain('残りのバックアップコード');
  });

  it('shows a wrong code on the sign-in prompt in the language; JSON keeps TWO_FACTOR_INVALID_CODE', async () => {
    const c = f.client();
    const first = await c.signIn();
    expect(first.status).toBe(401);
    const prompt = await c.request('/auth/two-factor/verify', { headers: { ...page, 'accept-language': 'fr' } });
    expect(await prompt.text()).toContain('Code de votre application d&#39;authentification');
    const wrong = await c.postForm('/auth/two-factor/verify', { code: '000000' }, { 'accept-language': 'fr' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('Le code est incorrect ou a déjà été utilisé');
    const json = await c.postJson('/auth/two-factor/verify', { code: '000000' }, { 'accept-language': 'fr' });
    expect(((await json.json()) as { error: { code: string } }).error.code).toBe('TWO_FACTOR_INVALID_CODE');
  });
});
