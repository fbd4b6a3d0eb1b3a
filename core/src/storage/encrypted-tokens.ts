/**
 * A storage adapter wrapper that keeps OAuth tokens (`access_token`,
 * `refresh_token`, `id_token`) encrypted at rest. `createAuth` wraps its
 * adapter with it whenever `secret` is set; `auth.adapter` is the wrapped
 * adapter.
 * @module
 */
import type { AdapterAccount, StorageAdapter } from './types.js';
import { tokenCipher } from './token-cipher.js';
import { delegateAdapter } from './delegate.js';

/** The account fields encrypted at rest. */
export const ENCRYPTED_ACCOUNT_FIELDS = ['access_token', 'refresh_token', 'id_token'] as const;

type AccountKey = { provider: string; providerAccountId: string };
type TokenFields = Partial<Pick<AdapterAccount, (typeof ENCRYPTED_ACCOUNT_FIELDS)[number]>>;

const WRAPPED = Symbol.for('framework.auth.encryptedTokens');

/** Where a value lives: its AES-GCM additional data. */
const placeOf = (field: string, key: AccountKey): string =>
  `framework.auth account token\u0000${field}\u0000${key.provider}\u0000${key.providerAccountId}`;

/**
 * Wraps `adapter` so that the OAuth tokens of accounts are stored encrypted
 * (AES-256-GCM, key derived from `secrets` with HKDF-SHA-256) and returned
 * decrypted. The first secret encrypts, all of them decrypt, so rotating
 * `secret` (`[new, old]`) keeps existing rows readable. Rows written before
 * encryption (plain text) are read as they are and encrypted on their next
 * write. A value no secret opens (its secret was dropped, or the row was
 * tampered with or copied from another account) reads as absent: the user
 * signs in again to store fresh tokens.
 *
 * Every other method passes straight through. Reading the unwrapped adapter
 * directly shows the ciphertext (`enc:v1:…`): read tokens through
 * `auth.adapter` or `auth.getAccessToken`.
 *
 * @param secrets - the auth secrets; with none, `adapter` is returned unchanged.
 * @example
 * ```ts
 * const adapter = encryptAccountTokens(createSqliteAdapter({ filename: '.data/auth.db' }), [process.env.AUTH_SECRET!]);
 * const account = await adapter.getAccount({ provider: 'github', providerAccountId: '42' }); // plain tokens
 * ```
 */
export function encryptAccountTokens(adapter: StorageAdapter, secrets: readonly string[]): StorageAdapter {
  if (secrets.length === 0 || (adapter as unknown as Record<symbol, unknown>)[WRAPPED]) return adapter;
  const cipher = tokenCipher(secrets);

  async function seal<T extends TokenFields>(key: AccountKey, fields: T): Promise<T> {
    const out = { ...fields };
    for (const field of ENCRYPTED_ACCOUNT_FIELDS) {
      const value = fields[field];
      if (typeof value === 'string') out[field] = await cipher.encrypt(value, placeOf(field, key));
    }
    return out;
  }

  async function open(account: AdapterAccount): Promise<AdapterAccount> {
    for (const field of ENCRYPTED_ACCOUNT_FIELDS) {
      const value = account[field];
      if (typeof value !== 'string') continue;
      const plain = await cipher.decrypt(value, placeOf(field, account));
      if (plain === null) delete account[field];
      else account[field] = plain;
    }
    return account;
  }

  const openOrNull = async (account: AdapterAccount | null) => (account ? open(account) : null);

  return delegateAdapter(
    adapter,
    {
      linkAccount: async (account) => open(await adapter.linkAccount(await seal(account, account))),
      getAccount: async (key) => openOrNull(await adapter.getAccount(key)),
      listAccounts: async (userId) => Promise.all((await adapter.listAccounts(userId)).map(open)),
      updateAccount: async (key, patch) => openOrNull(await adapter.updateAccount(key, await seal(key, patch))),
    },
    WRAPPED,
  );
}
