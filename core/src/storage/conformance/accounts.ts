/**
 * Conformance tests for accounts: link, read, list, update, unlink.
 * @module
 * @internal
 */
import { expect, it } from 'vitest';
import type { AdapterAccount } from '../types.js';
import { addUser, expectConflict, expectRejection, sampleAccount, sortBy, type CurrentAdapter } from './fixtures.js';

/** Declares the account tests. */
export function accountTests(current: CurrentAdapter): void {
  it('linkAccount round-trips every field; getUserByAccount finds the owner', async () => {
    const user = await addUser(current());
    const account: AdapterAccount = sampleAccount(user.id, {
      type: 'oidc',
      access_token: 'at-1',
      refresh_token: 'rt-1',
      expires_at: 1_900_000_000,
      token_type: 'bearer',
      scope: 'openid email',
      id_token: 'eyJ.id.token',
      passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
    });
    expect(await current().linkAccount(account)).toStrictEqual(account);
    expect(await current().getAccount(account)).toStrictEqual(account);
    expect(await current().getUserByAccount(account)).toStrictEqual(user);
    expect(await current().listAccounts(user.id)).toStrictEqual([account]);
  });

  it('drops absent or null optional fields, and ignores unknown keys', async () => {
    const user = await addUser(current());
    const minimal = sampleAccount(user.id, { type: 'credentials', passwordHash: null, scope: undefined });
    const extra = { ...sampleAccount(user.id), session_state: 'x' } as AdapterAccount;
    const stored = await current().linkAccount(minimal);
    const expected = {
      provider: minimal.provider,
      providerAccountId: minimal.providerAccountId,
      type: 'credentials',
      userId: user.id,
    };
    expect(stored).toStrictEqual(expected);
    expect(await current().getAccount(minimal)).toStrictEqual(expected);
    expect(await current().linkAccount(extra)).not.toHaveProperty('session_state');
  });

  it('linkAccount rejects a linked provider+providerAccountId with a conflict on "account"', async () => {
    const [a, b] = [await addUser(current()), await addUser(current())];
    const account = await current().linkAccount(sampleAccount(a.id, { providerAccountId: '42' }));
    await expectConflict(current().linkAccount(sampleAccount(b.id, { providerAccountId: '42' })), 'account');
    await current().linkAccount(sampleAccount(b.id, { provider: 'google', providerAccountId: '42' }));
    expect((await current().getUserByAccount(account))?.id).toBe(a.id);
  });

  it('linkAccount rejects an unknown user', async () => {
    await expectRejection(current().linkAccount(sampleAccount('no-such-user')));
  });

  it('listAccounts returns every account of a user and no others', async () => {
    const [a, b] = [await addUser(current()), await addUser(current())];
    const mine = [
      await current().linkAccount(sampleAccount(a.id)),
      await current().linkAccount(sampleAccount(a.id, { provider: 'google' })),
    ];
    await current().linkAccount(sampleAccount(b.id));
    const key = (row: AdapterAccount) => `${row.provider}/${row.providerAccountId}`;
    expect(sortBy(await current().listAccounts(a.id), key)).toStrictEqual(sortBy(mine, key));
    expect(await current().listAccounts('no-such-user')).toStrictEqual([]);
  });

  it('updateAccount patches token fields, keeps the rest, and clears with null', async () => {
    const user = await addUser(current());
    const account = await current().linkAccount(
      sampleAccount(user.id, { access_token: 'old', refresh_token: 'keep', expires_at: 100, passwordHash: 'h' }),
    );
    const patched = await current().updateAccount(account, {
      access_token: 'new',
      expires_at: 200,
      refresh_token: undefined,
    });
    const expected = { ...account, access_token: 'new', expires_at: 200 };
    expect(patched).toStrictEqual(expected);
    expect(await current().getAccount(account)).toStrictEqual(expected);
    const cleared = await current().updateAccount(account, { passwordHash: null });
    expect(cleared).not.toHaveProperty('passwordHash');
    expect(await current().updateAccount(account, {})).toStrictEqual(cleared);
  });

  it('updateAccount on an unknown account gives null', async () => {
    expect(
      await current().updateAccount({ provider: 'github', providerAccountId: 'none' }, { access_token: 'x' }),
    ).toBeNull();
  });

  it('unlinkAccount removes one account; unknown keys are a no-op', async () => {
    const user = await addUser(current());
    const gone = await current().linkAccount(sampleAccount(user.id));
    const kept = await current().linkAccount(sampleAccount(user.id));
    await current().unlinkAccount(gone);
    await current().unlinkAccount(gone);
    await current().unlinkAccount({ provider: 'nope', providerAccountId: 'nope' });
    expect(await current().getAccount(gone)).toBeNull();
    expect(await current().getUserByAccount(gone)).toBeNull();
    expect(await current().listAccounts(user.id)).toStrictEqual([kept]);
    expect(await current().getUser(user.id)).not.toBeNull();
  });
}
