/**
 * Conformance tests for single-use verification tokens.
 * @module
 * @internal
 */
import { expect, it } from 'vitest';
import type { VerificationToken } from '../types.js';
import { at, expectConflict, unique, type CurrentAdapter } from './fixtures.js';

const sampleToken = (fields: Partial<VerificationToken> = {}): VerificationToken => ({
  identifier: `${unique('to')}@example.com`,
  tokenHash: 'c'.repeat(64),
  expires: at(600_123),
  ...fields,
});

/** Declares the verification token tests. */
export function tokenTests(current: CurrentAdapter): void {
  it('useVerificationToken returns a token once, then null', async () => {
    const token = sampleToken();
    expect(await current().createVerificationToken(token)).toStrictEqual(token);
    expect(await current().useVerificationToken(token)).toStrictEqual(token);
    expect(await current().useVerificationToken(token)).toBeNull();
  });

  it('useVerificationToken needs both identifier and tokenHash to match', async () => {
    const token = await current().createVerificationToken(sampleToken());
    expect(
      await current().useVerificationToken({ identifier: token.identifier, tokenHash: 'd'.repeat(64) }),
    ).toBeNull();
    expect(
      await current().useVerificationToken({ identifier: 'other@example.com', tokenHash: token.tokenHash }),
    ).toBeNull();
    expect(
      await current().useVerificationToken({ identifier: token.identifier.toUpperCase(), tokenHash: token.tokenHash }),
    ).toBeNull();
    expect(await current().useVerificationToken(token)).toStrictEqual(token);
  });

  it('an expired token is still returned, once', async () => {
    const token = await current().createVerificationToken(sampleToken({ expires: new Date(1000) }));
    expect(await current().useVerificationToken(token)).toStrictEqual(token);
    expect(await current().useVerificationToken(token)).toBeNull();
  });

  it('20 concurrent useVerificationToken calls on one token: exactly one wins', async () => {
    const token = await current().createVerificationToken(sampleToken());
    const results = await Promise.all(Array.from({ length: 20 }, () => current().useVerificationToken(token)));
    expect(results.filter((r) => r !== null)).toStrictEqual([token]);
  });

  it('createVerificationToken rejects a duplicate identifier+tokenHash ("tokenHash")', async () => {
    const token = await current().createVerificationToken(sampleToken());
    await expectConflict(current().createVerificationToken({ ...token, expires: at(1) }), 'tokenHash');
    const sibling = await current().createVerificationToken({ ...token, identifier: 'someone-else@example.com' });
    expect(await current().useVerificationToken(sibling)).toStrictEqual(sibling);
    expect(await current().useVerificationToken(token)).toStrictEqual(token);
  });

  it('deleteVerificationTokens deletes the tokens of exactly one identifier, or only those expiring later', async () => {
    const identifier = unique('undo:user');
    const early = await current().createVerificationToken(
      sampleToken({ identifier, tokenHash: '1'.repeat(64), expires: at(60_000) }),
    );
    const late = await current().createVerificationToken(
      sampleToken({ identifier, tokenHash: '2'.repeat(64), expires: at(120_000) }),
    );
    const later = await current().createVerificationToken(
      sampleToken({ identifier, tokenHash: '3'.repeat(64), expires: at(180_000) }),
    );
    const other = await current().createVerificationToken(
      sampleToken({ identifier: `${identifier}x`, tokenHash: '1'.repeat(64), expires: at(180_000) }),
    );
    expect(await current().deleteVerificationTokens({ identifier, expiresAfter: late.expires })).toBe(1);
    expect(await current().useVerificationToken(later)).toBeNull();
    expect(await current().deleteVerificationTokens({ identifier })).toBe(2);
    expect(await current().useVerificationToken(early)).toBeNull();
    expect(await current().useVerificationToken(late)).toBeNull();
    expect(await current().deleteVerificationTokens({ identifier })).toBe(0);
    // A longer identifier that starts the same is another identifier.
    expect(await current().useVerificationToken(other)).toStrictEqual(other);
  });
}
