/**
 * The conformance suite every {@link OidcProviderStorage} passes (memory, SQLite, D1, PostgreSQL, MySQL/MariaDB).
 * @module
 * @internal
 */
import { describe, expect, it } from 'vitest';
import { freshStorage, type PluginStorageFactory } from '../../storage-conformance.js';
import type {
  AuthorizationCodeRecord,
  GrantRecord,
  OidcClientRecord,
  OidcProviderStorage,
  RefreshTokenRecord,
} from '../types.js';

const T0 = new Date(1_700_000_000_000);
const at = (ms: number) => new Date(T0.getTime() + ms);
const hash = (c: string) => c.repeat(64).slice(0, 64);

const client = (id: string, over: Partial<OidcClientRecord> = {}): OidcClientRecord => ({
  id,
  secretHash: hash('s'),
  public: false,
  name: `App ${id}`,
  redirectUris: ['https://rp.example/cb', 'http://127.0.0.1:8080/cb?x=1'],
  postLogoutRedirectUris: [],
  scopes: ['openid', 'profile', 'email'],
  skipConsent: false,
  createdAt: T0,
  ...over,
});
const code = (codeHash: string, over: Partial<AuthorizationCodeRecord> = {}): AuthorizationCodeRecord => ({
  codeHash,
  clientId: 'c1',
  userId: 'u1',
  redirectUri: 'https://rp.example/cb',
  codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  nonce: 'n-0S6_WzA2Mj',
  scopes: ['openid', 'email'],
  authTime: T0,
  amr: ['pwd', 'otp', 'mfa'],
  acr: null,
  grantId: 'g1',
  expiresAt: at(60_000),
  ...over,
});
const grant = (id: string, over: Partial<GrantRecord> = {}): GrantRecord => ({
  id,
  clientId: 'c1',
  userId: 'u1',
  scopes: ['openid'],
  authTime: T0,
  amr: [],
  acr: 'urn:example:mfa',
  createdAt: T0,
  revokedAt: null,
  ...over,
});
const refresh = (tokenHash: string, over: Partial<RefreshTokenRecord> = {}): RefreshTokenRecord => ({
  tokenHash,
  grantId: 'g1',
  expiresAt: at(86_400_000),
  rotatedAt: null,
  ...over,
});

/** Registers the suite under `name`. */
export function runOidcProviderStorageConformance(
  name: string,
  factory: PluginStorageFactory<OidcProviderStorage>,
): void {
  const withStorage = freshStorage(factory);
  describe(`oidcProvider storage conformance: ${name}`, () => {
    it('round-trips clients, replaces one by id, and removes it', () =>
      withStorage(async (s) => {
        expect(await s.getClient('c1')).toBeNull();
        await s.putClient(client('c1'));
        await s.putClient(client('pub', { public: true, secretHash: null, skipConsent: true }));
        expect(await s.getClient('c1')).toStrictEqual(client('c1'));
        expect(await s.getClient('pub')).toStrictEqual(
          client('pub', { public: true, secretHash: null, skipConsent: true }),
        );
        expect(await s.getClient('C1')).toBeNull();
        await s.putClient(client('c1', { name: 'Renamed', redirectUris: ['https://other.example/cb'] }));
        expect(await s.getClient('c1')).toMatchObject({ name: 'Renamed', redirectUris: ['https://other.example/cb'] });
        await s.removeClient('c1');
        expect(await s.getClient('c1')).toBeNull();
        expect(await s.getClient('pub')).not.toBeNull();
      }));

    it('uses a code once: the first consume is fresh, every later one (even at once) a replay', () =>
      withStorage(async (s) => {
        expect(await s.consumeCode(hash('x'))).toBeNull();
        await s.putCode(code(hash('a')));
        await s.putCode(code(hash('b'), { nonce: null, acr: 'urn:example:mfa', amr: [] }));
        expect(await s.consumeCode(hash('a'))).toStrictEqual({ code: code(hash('a')), replayed: false });
        expect(await s.consumeCode(hash('a'))).toStrictEqual({ code: code(hash('a')), replayed: true });
        const both = await Promise.all([s.consumeCode(hash('b')), s.consumeCode(hash('b'))]);
        expect(both.map((r) => r!.replayed).sort()).toStrictEqual([false, true]);
        expect(both[0]!.code).toStrictEqual(code(hash('b'), { nonce: null, acr: 'urn:example:mfa', amr: [] }));
      }));

    it('keeps grants, revokes one once, and revokes a user’s grants (per client)', () =>
      withStorage(async (s) => {
        await s.createGrant(grant('g1'));
        await s.createGrant(grant('g2', { clientId: 'c2' }));
        await s.createGrant(grant('g3', { userId: 'u2' }));
        await s.createGrant(grant('g1', { userId: 'someone-else' }));
        expect(await s.getGrant('g1')).toStrictEqual(grant('g1'));
        expect(await s.getGrant('nope')).toBeNull();
        await s.revokeGrant('g1', at(1000));
        await s.revokeGrant('g1', at(2000));
        await s.revokeGrant('nope', at(2000));
        expect((await s.getGrant('g1'))?.revokedAt).toStrictEqual(at(1000));
        expect(await s.getGrant('nope')).toBeNull();
        await s.createGrant(grant('g4'));
        expect(await s.revokeGrantsOf('u1', 'c2', at(3000))).toBe(1);
        expect((await s.getGrant('g4'))?.revokedAt).toBeNull();
        expect(await s.revokeGrantsOf('u1', undefined, at(4000))).toBe(1);
        expect((await s.getGrant('g4'))?.revokedAt).toStrictEqual(at(4000));
        expect((await s.getGrant('g3'))?.revokedAt).toBeNull();
      }));

    it('rotates a refresh token once (even at once); later tries are refused', () =>
      withStorage(async (s) => {
        expect(await s.rotateRefreshToken(hash('r'), at(1))).toBe(false);
        await s.putRefreshToken(refresh(hash('r')));
        expect(await s.getRefreshToken(hash('r'))).toStrictEqual(refresh(hash('r')));
        const tries = await Promise.all([
          s.rotateRefreshToken(hash('r'), at(5)),
          s.rotateRefreshToken(hash('r'), at(5)),
        ]);
        expect(tries.filter(Boolean)).toHaveLength(1);
        expect(await s.rotateRefreshToken(hash('r'), at(9))).toBe(false);
        expect((await s.getRefreshToken(hash('r')))?.rotatedAt).toStrictEqual(at(5));
        expect(await s.getRefreshToken(hash('q'))).toBeNull();
      }));

    it('keeps one consent per user and client, lists a user’s, and removes one', () =>
      withStorage(async (s) => {
        await s.putConsent({ userId: 'u1', clientId: 'c2', scopes: ['openid'], createdAt: at(2) });
        await s.putConsent({ userId: 'u1', clientId: 'c1', scopes: ['openid'], createdAt: at(1) });
        await s.putConsent({ userId: 'u2', clientId: 'c1', scopes: ['openid'], createdAt: at(1) });
        await s.putConsent({ userId: 'u1', clientId: 'c1', scopes: ['openid', 'email'], createdAt: at(1) });
        expect(await s.getConsent('u1', 'c1')).toStrictEqual({
          userId: 'u1',
          clientId: 'c1',
          scopes: ['openid', 'email'],
          createdAt: at(1),
        });
        expect(await s.getConsent('u1', 'c3')).toBeNull();
        expect((await s.listConsents('u1')).map((c) => c.clientId)).toStrictEqual(['c1', 'c2']);
        expect(await s.removeConsent('u1', 'c1')).toBe(true);
        expect(await s.removeConsent('u1', 'c1')).toBe(false);
        expect((await s.listConsents('u1')).map((c) => c.clientId)).toStrictEqual(['c2']);
        expect(await s.listConsents('u2')).toHaveLength(1);
      }));

    it('prunes expired codes and refresh tokens only', () =>
      withStorage(async (s) => {
        await s.putCode(code(hash('a'), { expiresAt: at(10) }));
        await s.putCode(code(hash('b'), { expiresAt: at(30) }));
        await s.putRefreshToken(refresh(hash('r'), { expiresAt: at(10) }));
        await s.putRefreshToken(refresh(hash('t'), { expiresAt: at(30) }));
        await s.prune(at(20));
        expect(await s.consumeCode(hash('a'))).toBeNull();
        expect(await s.consumeCode(hash('b'))).not.toBeNull();
        expect(await s.getRefreshToken(hash('r'))).toBeNull();
        expect(await s.getRefreshToken(hash('t'))).not.toBeNull();
      }));
  });
}
