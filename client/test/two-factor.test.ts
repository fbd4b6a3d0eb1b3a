/**
 * `@framework/auth-client/plugins/two-factor` against the real engine with `twoFactor()`: enrol, then a sign-in
 * that needs the code, finished by `verifyTwoFactor`. Codes come from `otpauth`, independent of the server.
 */
import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import { createMemoryTwoFactorStorage, twoFactor } from '@framework/auth/plugins/two-factor';
import {
  confirmTwoFactor,
  disableTwoFactor,
  enableTwoFactor,
  getTwoFactorStatus,
  regenerateBackupCodes,
  revokeTrustedDevices,
  verifyTwoFactor,
} from '../src/plugins/two-factor.js';
import { engine } from './engine-fetch.js';

const SECRET = 'client-two-factor-test-secret-0123456789abcdef';
const credentials = { email: 'ada@example.com', password: 'analytical-engine', redirect: false } as const;

describe('two-factor client functions', () => {
  it('cover enrolment, the sign-in challenge, backup codes, trusted browsers and disabling', async () => {
    const { browser, adapter, ada } = await engine({
      secret: SECRET,
      plugins: [twoFactor({ storage: createMemoryTwoFactorStorage() })],
      rateLimit: { login: false },
    });
    await adapter.updateUser(ada.id, { emailVerified: new Date() }); // enrolment needs a verified email
    const laptop = browser();
    const opts = { fetch: laptop.fetch };
    expect((await laptop.client.signIn('credentials', credentials)).ok).toBe(true);

    const enrolment = await enableTwoFactor({ password: 'analytical-engine' }, opts);
    expect(enrolment.ok).toBe(true);
    const totp = OTPAuth.URI.parse(enrolment.data!.totpURI) as OTPAuth.TOTP;
    expect(enrolment.data!.backupCodes).toHaveLength(10);
    expect((await confirmTwoFactor({ code: '000000' }, opts)).error).toBe('TWO_FACTOR_INVALID_CODE');
    expect(await confirmTwoFactor({ code: totp.generate() }, opts)).toMatchObject({ ok: true });
    expect((await getTwoFactorStatus(opts)).data).toMatchObject({ enabled: true, backupCodesLeft: 10 });

    const phone = browser();
    const first = await phone.client.signIn('credentials', credentials);
    expect(first).toMatchObject({ ok: false, status: 401, error: 'TWO_FACTOR_REQUIRED' });
    expect(await phone.client.getSession()).toBeNull();
    const verified = await verifyTwoFactor(
      { backupCode: enrolment.data!.backupCodes[0]!, trustDevice: true },
      { fetch: phone.fetch },
    );
    expect(verified).toMatchObject({ ok: true, status: 200 });
    expect((await phone.client.getSession())?.user.email).toBe('ada@example.com');
    expect(phone.jar.has('framework.two-factor-trust')).toBe(true);

    const status = (await getTwoFactorStatus(opts)).data!;
    expect(status.backupCodesLeft).toBe(9);
    expect(status.trustedDevices).toHaveLength(1);
    expect((await revokeTrustedDevices({}, opts)).data).toMatchObject({ removed: 1 });

    const codes = await regenerateBackupCodes({ password: 'analytical-engine' }, opts);
    expect(codes.data!.backupCodes).toHaveLength(10);
    expect((await disableTwoFactor({ password: 'wrong' }, opts)).error).toBe('INVALID_CREDENTIALS');
    expect((await disableTwoFactor({ password: 'analytical-engine' }, opts)).data).toMatchObject({ enabled: false });
    expect((await browser().client.signIn('credentials', credentials)).ok).toBe(true);
  });
});
