/**
 * The conformance suite every {@link SsoStorage} passes (memory, SQLite, PostgreSQL, MySQL/MariaDB).
 * @module
 * @internal
 */
import { describe, expect, it } from 'vitest';
import { freshStorage, type PluginStorageFactory } from '../../storage-conformance.js';
import type { SsoProviderRecord, SsoStorage } from '../types.js';

const T = 1_800_000_000_000;
const provider = (n: number, overrides: Partial<SsoProviderRecord> = {}): SsoProviderRecord => ({
  id: `idp-${n}`,
  organizationId: 'org-a',
  type: 'oidc',
  name: `IdP ${n}`,
  domain: 'acme.test',
  oidc: { issuer: 'https://idp.acme.test', clientId: 'client', clientSecret: 'enc:v1:sealed', scope: 'openid email' },
  saml: null,
  roleMapping: { attribute: 'groups', values: { admins: 'admin' }, defaultRole: 'member' },
  createdAt: new Date(T + n),
  ...overrides,
});
const claim = (domain: string, organizationId: string, tokenHash = 'a'.repeat(64)) => ({
  domain,
  organizationId,
  tokenHash,
  createdAt: new Date(T),
});

/** Declares the tests for one implementation. */
export function runSsoStorageConformance(name: string, factory: PluginStorageFactory<SsoStorage>): void {
  describe(`sso storage conformance: ${name}`, () => {
    const withStorage = freshStorage(factory);

    it('round-trips OIDC and SAML providers, lists them per organization oldest first, refuses a taken id', () =>
      withStorage(async (s) => {
        const saml = provider(2, {
          type: 'saml',
          oidc: null,
          saml: { entityId: 'urn:idp', ssoUrl: 'https://idp.test/sso', certificates: ['MIIB', 'MIIC'] },
          roleMapping: null,
          domain: null,
        });
        expect(await s.createProvider(provider(1, { domain: 'ACME.test' }))).toBe(true);
        expect(await s.createProvider(saml)).toBe(true);
        expect(await s.createProvider(provider(3, { organizationId: 'org-b' }))).toBe(true);
        expect(await s.createProvider(provider(1, { name: 'again' }))).toBe(false);
        expect(await s.getProvider('idp-1')).toStrictEqual(provider(1));
        expect(await s.getProvider('idp-2')).toStrictEqual(saml);
        expect(await s.getProvider('nope')).toBeNull();
        expect((await s.listProviders('org-a')).map((p) => p.id)).toEqual(['idp-1', 'idp-2']);
        expect(await s.deleteProvider('org-b', 'idp-1')).toBe(false);
        expect(await s.deleteProvider('org-a', 'idp-1')).toBe(true);
        expect(await s.getProvider('idp-1')).toBeNull();
      }));

    it('updates a provider of its organization only, keeping its id, type and creation time', () =>
      withStorage(async (s) => {
        expect(await s.createProvider(provider(1))).toBe(true);
        const changed = provider(1, {
          name: 'Renamed',
          domain: 'EU.Acme.test',
          oidc: { issuer: 'https://idp2.test', clientId: 'c2', clientSecret: 'sealed-2', scope: 'openid email' },
          roleMapping: { attribute: 'groups', values: { admins: 'admin' } },
          createdAt: new Date(T + 99),
        });
        expect(await s.updateProvider({ ...changed, organizationId: 'org-b' })).toBe(false);
        expect(await s.getProvider('idp-1')).toStrictEqual(provider(1));
        expect(await s.updateProvider({ ...changed, id: 'nope' })).toBe(false);
        expect(await s.updateProvider(changed)).toBe(true);
        expect(await s.getProvider('idp-1')).toStrictEqual({
          ...changed,
          domain: 'eu.acme.test',
          createdAt: provider(1).createdAt,
        });
        expect(await s.updateProvider({ ...changed, type: 'saml', roleMapping: null, domain: null })).toBe(true);
        expect(await s.getProvider('idp-1')).toMatchObject({ type: 'oidc', roleMapping: null, domain: null });
      }));

    it('claims a domain per organization; a renewed claim takes the new token and is unverified again', () =>
      withStorage(async (s) => {
        await s.claimDomain(claim('Acme.Test', 'org-a'));
        await s.claimDomain(claim('acme.test', 'org-b', 'b'.repeat(64)));
        expect(await s.getDomain('acme.test', 'org-a')).toStrictEqual({
          domain: 'acme.test',
          organizationId: 'org-a',
          tokenHash: 'a'.repeat(64),
          verifiedAt: null,
          createdAt: new Date(T),
        });
        expect(await s.verifiedDomain('acme.test')).toBeNull();
        expect(await s.markDomainVerified('acme.test', 'org-a', new Date(T + 5))).toBe(true);
        expect((await s.verifiedDomain('ACME.test'))?.organizationId).toBe('org-a');
        expect((await s.getDomain('acme.test', 'org-a'))?.verifiedAt).toEqual(new Date(T + 5));
        await s.claimDomain(claim('acme.test', 'org-a', 'c'.repeat(64)));
        const renewed = await s.getDomain('acme.test', 'org-a');
        expect(renewed).toMatchObject({ tokenHash: 'c'.repeat(64), verifiedAt: null });
        expect(await s.verifiedDomain('acme.test')).toBeNull();
        expect((await s.listDomains('org-a')).map((d) => d.domain)).toEqual(['acme.test']);
      }));

    it('verifies a domain for one organization at most, and not without a claim', () =>
      withStorage(async (s) => {
        await s.claimDomain(claim('acme.test', 'org-a'));
        await s.claimDomain(claim('acme.test', 'org-b'));
        expect(await s.markDomainVerified('other.test', 'org-a', new Date(T))).toBe(false);
        expect(await s.markDomainVerified('acme.test', 'org-b', new Date(T))).toBe(true);
        expect(await s.markDomainVerified('acme.test', 'org-a', new Date(T))).toBe(false);
        expect((await s.verifiedDomain('acme.test'))?.organizationId).toBe('org-b');
        expect((await s.getDomain('acme.test', 'org-a'))?.verifiedAt).toBeNull();
        expect(await s.deleteDomain('acme.test', 'org-b')).toBe(true);
        expect(await s.verifiedDomain('acme.test')).toBeNull();
        expect(await s.markDomainVerified('acme.test', 'org-a', new Date(T))).toBe(true);
      }));

    it('records a single-use id once until it expires, per kind', () =>
      withStorage(async (s) => {
        expect(await s.rememberOnce('assertion', 'id-1', T + 1000, T)).toBe(true);
        expect(await s.rememberOnce('assertion', 'id-1', T + 1000, T + 10)).toBe(false);
        expect(await s.rememberOnce('request', 'id-1', T + 1000, T)).toBe(true);
        expect(await s.rememberOnce('assertion', 'id-1', T + 3000, T + 1000)).toBe(true);
        const both = await Promise.all([
          s.rememberOnce('assertion', 'race', T + 1000, T),
          s.rememberOnce('assertion', 'race', T + 1000, T),
        ]);
        expect(both.filter(Boolean)).toHaveLength(1);
      }));

    it('uses up a recorded id once, and never an expired or unknown one', () =>
      withStorage(async (s) => {
        await s.rememberOnce('request', 'r-1', T + 1000, T);
        await s.rememberOnce('request', 'r-2', T + 1000, T);
        expect(await s.takeOnce('assertion', 'r-1', T)).toBe(false);
        const both = await Promise.all([s.takeOnce('request', 'r-1', T + 1), s.takeOnce('request', 'r-1', T + 1)]);
        expect(both.filter(Boolean)).toHaveLength(1);
        expect(await s.takeOnce('request', 'r-2', T + 1000)).toBe(false);
        expect(await s.takeOnce('request', 'nope', T)).toBe(false);
      }));

    it('deletes the providers and claims of an organization', () =>
      withStorage(async (s) => {
        await s.createProvider(provider(1));
        await s.createProvider(provider(2, { organizationId: 'org-b' }));
        await s.claimDomain(claim('acme.test', 'org-a'));
        await s.deleteByOrganization('org-a');
        expect(await s.listProviders('org-a')).toEqual([]);
        expect(await s.listDomains('org-a')).toEqual([]);
        expect(await s.getProvider('idp-2')).not.toBeNull();
      }));
  });
}
