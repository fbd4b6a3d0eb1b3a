/**
 * `createMemoryOidcProviderStorage`: the provider's records in this process's memory.
 * @module
 */
import type {
  AuthorizationCodeRecord,
  ConsentRecord,
  GrantRecord,
  OidcClientRecord,
  OidcProviderStorage,
  RefreshTokenRecord,
} from '../types.js';

const copy = <T extends object>(value: T): T => structuredClone(value);

/**
 * The provider's clients, codes, grants, refresh tokens and consents in `Map`s of this process: for tests and
 * single-instance apps on the memory adapter (the default there). Use `createSqlOidcProviderStorage` otherwise.
 * @example
 * ```ts
 * import { oidcProvider, createMemoryOidcProviderStorage } from '@framework/auth/plugins/oidc-provider';
 *
 * oidcProvider({ storage: createMemoryOidcProviderStorage(), clients: [] });
 * ```
 */
export function createMemoryOidcProviderStorage(): OidcProviderStorage {
  const clients = new Map<string, OidcClientRecord>();
  const codes = new Map<string, { code: AuthorizationCodeRecord; used: boolean }>();
  const grants = new Map<string, GrantRecord>();
  const refresh = new Map<string, RefreshTokenRecord>();
  const consents = new Map<string, ConsentRecord>();
  const consentKey = (userId: string, clientId: string) => JSON.stringify([userId, clientId]);
  return {
    async migrate() {},
    async putClient(client) {
      clients.set(client.id, copy(client));
    },
    async getClient(id) {
      const c = clients.get(id);
      return c ? copy(c) : null;
    },
    async removeClient(id) {
      clients.delete(id);
    },
    async putCode(code) {
      codes.set(code.codeHash, { code: copy(code), used: false });
    },
    async consumeCode(codeHash) {
      const entry = codes.get(codeHash);
      if (!entry) return null;
      const replayed = entry.used;
      entry.used = true;
      return { code: copy(entry.code), replayed };
    },
    async createGrant(grant) {
      if (!grants.has(grant.id)) grants.set(grant.id, copy(grant));
    },
    async getGrant(id) {
      const g = grants.get(id);
      return g ? copy(g) : null;
    },
    async revokeGrant(id, at) {
      const g = grants.get(id);
      if (g && !g.revokedAt) g.revokedAt = new Date(at);
    },
    async revokeGrantsOf(userId, clientId, at) {
      let n = 0;
      for (const g of grants.values())
        if (g.userId === userId && (clientId === undefined || g.clientId === clientId) && !g.revokedAt) {
          g.revokedAt = new Date(at);
          n++;
        }
      return n;
    },
    async putRefreshToken(token) {
      refresh.set(token.tokenHash, copy(token));
    },
    async getRefreshToken(tokenHash) {
      const t = refresh.get(tokenHash);
      return t ? copy(t) : null;
    },
    async rotateRefreshToken(tokenHash, at) {
      const t = refresh.get(tokenHash);
      if (!t || t.rotatedAt) return false;
      t.rotatedAt = new Date(at);
      return true;
    },
    async putConsent(consent) {
      consents.set(consentKey(consent.userId, consent.clientId), copy(consent));
    },
    async getConsent(userId, clientId) {
      const c = consents.get(consentKey(userId, clientId));
      return c ? copy(c) : null;
    },
    async listConsents(userId) {
      return [...consents.values()]
        .filter((c) => c.userId === userId)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.clientId.localeCompare(b.clientId))
        .map(copy);
    },
    async removeConsent(userId, clientId) {
      return consents.delete(consentKey(userId, clientId));
    },
    async prune(now) {
      for (const [k, { code }] of codes) if (code.expiresAt <= now) codes.delete(k);
      for (const [k, t] of refresh) if (t.expiresAt <= now) refresh.delete(k);
    },
  };
}
