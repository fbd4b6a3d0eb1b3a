/**
 * Conformance tests for passkey credentials.
 * @module
 * @internal
 */
import { expect, it } from 'vitest';
import type { Authenticator } from '../types.js';
import {
  addUser,
  expectConflict,
  expectRejection,
  sampleAuthenticator,
  sortBy,
  type CurrentAdapter,
} from './fixtures.js';

/** Declares the authenticator tests. */
export function authenticatorTests(current: CurrentAdapter): void {
  it('createAuthenticator round-trips every field', async () => {
    const user = await addUser(current());
    const full = sampleAuthenticator(user.id);
    const bare = sampleAuthenticator(user.id, {
      transports: [],
      deviceType: 'singleDevice',
      backedUp: false,
      name: null,
      counter: 0,
    });
    expect(await current().createAuthenticator(full)).toStrictEqual(full);
    expect(await current().createAuthenticator(bare)).toStrictEqual(bare);
    expect(await current().getAuthenticator(full.credentialId)).toStrictEqual(full);
    expect(await current().getAuthenticator(bare.credentialId)).toStrictEqual(bare);
  });

  it('listAuthenticators returns the passkeys of one user only', async () => {
    const [a, b] = [await addUser(current()), await addUser(current())];
    const mine = [
      await current().createAuthenticator(sampleAuthenticator(a.id)),
      await current().createAuthenticator(sampleAuthenticator(a.id)),
    ];
    await current().createAuthenticator(sampleAuthenticator(b.id));
    const key = (row: Authenticator) => row.credentialId;
    expect(sortBy(await current().listAuthenticators(a.id), key)).toStrictEqual(sortBy(mine, key));
    expect(await current().listAuthenticators('no-such-user')).toStrictEqual([]);
  });

  it('returns copies: mutating a returned passkey does not change it', async () => {
    const user = await addUser(current());
    const passkey = await current().createAuthenticator(sampleAuthenticator(user.id));
    passkey.transports.push('usb');
    passkey.createdAt.setTime(0);
    expect(await current().getAuthenticator(passkey.credentialId)).toStrictEqual(
      sampleAuthenticator(user.id, { credentialId: passkey.credentialId }),
    );
  });

  it('updateAuthenticatorCounter stores the counter (up to 2^32 - 1); unknown id gives false', async () => {
    const user = await addUser(current());
    const passkey = await current().createAuthenticator(sampleAuthenticator(user.id));
    expect(await current().updateAuthenticatorCounter(passkey.credentialId, 4_294_967_295)).toBe(true);
    expect(await current().getAuthenticator(passkey.credentialId)).toStrictEqual({
      ...passkey,
      counter: 4_294_967_295,
    });
    expect(await current().updateAuthenticatorCounter('no-such-credential', 1)).toBe(false);
  });

  it('deleteAuthenticator deletes only for the owner and says whether it did', async () => {
    const [owner, stranger] = [await addUser(current()), await addUser(current())];
    const passkey = await current().createAuthenticator(sampleAuthenticator(owner.id));
    expect(await current().deleteAuthenticator(stranger.id, passkey.credentialId)).toBe(false);
    expect(await current().getAuthenticator(passkey.credentialId)).toStrictEqual(passkey);
    expect(await current().deleteAuthenticator(owner.id, passkey.credentialId)).toBe(true);
    expect(await current().getAuthenticator(passkey.credentialId)).toBeNull();
    expect(await current().deleteAuthenticator(owner.id, passkey.credentialId)).toBe(false);
  });

  it('createAuthenticator rejects a duplicate id ("credentialId") and an unknown user', async () => {
    const [a, b] = [await addUser(current()), await addUser(current())];
    const passkey = await current().createAuthenticator(sampleAuthenticator(a.id));
    await expectConflict(
      current().createAuthenticator(sampleAuthenticator(b.id, { credentialId: passkey.credentialId })),
      'credentialId',
    );
    expect((await current().getAuthenticator(passkey.credentialId))?.userId).toBe(a.id);
    await expectRejection(current().createAuthenticator(sampleAuthenticator('no-such-user')));
  });
}
