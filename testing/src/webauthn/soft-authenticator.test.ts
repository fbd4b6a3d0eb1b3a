import { describe, expect, it } from 'vitest';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { SoftAuthenticator } from '@framework/testing/webauthn';

const origin = 'https://app.example';
const rpID = 'app.example';

async function registered(key: SoftAuthenticator) {
  const options = await generateRegistrationOptions({ rpName: 'App', rpID, userName: 'ada@example.com' });
  const verified = await verifyRegistrationResponse({
    response: key.register(options, origin),
    expectedChallenge: options.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
  });
  expect(verified.verified).toBe(true);
  return verified.registrationInfo!.credential;
}

describe('SoftAuthenticator', () => {
  it('registers and signs assertions a WebAuthn relying party verifies, counting signatures', async () => {
    const key = new SoftAuthenticator();
    const credential = await registered(key);
    expect(credential.id).toBe(key.id);
    for (const expected of [1, 2]) {
      const options = await generateAuthenticationOptions({ rpID });
      const result = await verifyAuthenticationResponse({
        response: key.authenticate(options, origin),
        expectedChallenge: options.challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential: { ...credential, counter: key.counter - 1 },
      });
      expect(result.verified).toBe(true);
      expect(result.authenticationInfo.newCounter).toBe(expected);
    }
  });

  it('keeps the counter at 0 when asked, and signs for the origin it is given', async () => {
    const key = new SoftAuthenticator(false);
    const credential = await registered(key);
    const options = await generateAuthenticationOptions({ rpID });
    const response = key.authenticate(options, 'https://evil.example');
    expect(key.counter).toBe(0);
    await expect(
      verifyAuthenticationResponse({
        response,
        expectedChallenge: options.challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential,
      }),
    ).rejects.toThrow(/origin/i);
  });
});
