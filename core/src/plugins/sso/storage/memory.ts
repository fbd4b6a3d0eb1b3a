/**
 * `createMemorySsoStorage`: `sso()` records in this process's memory (tests, single-process apps).
 * @module
 */
import type { SsoDomainRecord, SsoOnceKind, SsoProviderRecord, SsoStorage } from '../types.js';

const copyProvider = (p: SsoProviderRecord): SsoProviderRecord => structuredClone(p);
const copyDomain = (d: SsoDomainRecord): SsoDomainRecord => structuredClone(d);
const domainKey = (domain: string, organizationId: string) => `${organizationId}\n${domain.toLowerCase()}`;

/**
 * An {@link SsoStorage} in memory: lost on restart and not shared between processes. Every step is atomic within
 * the process (no await between the check and the write).
 * @example
 * ```ts
 * sso({ organizations: orgs, storage: createMemorySsoStorage() });
 * ```
 */
export function createMemorySsoStorage(): SsoStorage {
  const providers = new Map<string, SsoProviderRecord>();
  const domains = new Map<string, SsoDomainRecord>();
  const once = new Map<string, number>();

  return {
    async migrate() {},
    async createProvider(p) {
      if (providers.has(p.id)) return false;
      providers.set(p.id, copyProvider({ ...p, domain: p.domain?.toLowerCase() ?? null }));
      return true;
    },
    async getProvider(id) {
      const p = providers.get(id);
      return p ? copyProvider(p) : null;
    },
    async listProviders(organizationId) {
      return [...providers.values()]
        .filter((p) => p.organizationId === organizationId)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
        .map(copyProvider);
    },
    async updateProvider(p) {
      const stored = providers.get(p.id);
      if (stored?.organizationId !== p.organizationId) return false;
      providers.set(
        p.id,
        copyProvider({
          ...p,
          type: stored.type,
          createdAt: stored.createdAt,
          domain: p.domain?.toLowerCase() ?? null,
        }),
      );
      return true;
    },
    async deleteProvider(organizationId, id) {
      if (providers.get(id)?.organizationId !== organizationId) return false;
      return providers.delete(id);
    },
    async claimDomain(claim) {
      const domain = claim.domain.toLowerCase();
      const key = domainKey(domain, claim.organizationId);
      const existing = domains.get(key);
      domains.set(key, {
        domain,
        organizationId: claim.organizationId,
        tokenHash: claim.tokenHash,
        verifiedAt: null,
        createdAt: existing?.createdAt ?? claim.createdAt,
      });
    },
    async getDomain(domain, organizationId) {
      const d = domains.get(domainKey(domain, organizationId));
      return d ? copyDomain(d) : null;
    },
    async listDomains(organizationId) {
      return [...domains.values()]
        .filter((d) => d.organizationId === organizationId)
        .sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0))
        .map(copyDomain);
    },
    async markDomainVerified(domain, organizationId, at) {
      const claim = domains.get(domainKey(domain, organizationId));
      if (!claim) return false;
      for (const other of domains.values())
        if (other !== claim && other.domain === claim.domain && other.verifiedAt) return false;
      claim.verifiedAt = new Date(at);
      return true;
    },
    async verifiedDomain(domain) {
      const lower = domain.toLowerCase();
      for (const d of domains.values()) if (d.domain === lower && d.verifiedAt) return copyDomain(d);
      return null;
    },
    async deleteDomain(domain, organizationId) {
      return domains.delete(domainKey(domain, organizationId));
    },
    async rememberOnce(kind: SsoOnceKind, id, untilMs, nowMs) {
      for (const [k, until] of once) if (until <= nowMs) once.delete(k);
      const key = `${kind}\n${id}`;
      if (once.has(key)) return false;
      once.set(key, untilMs);
      return true;
    },
    async takeOnce(kind: SsoOnceKind, id, nowMs) {
      const key = `${kind}\n${id}`;
      const until = once.get(key);
      once.delete(key);
      return until !== undefined && until > nowMs;
    },
    async deleteByOrganization(organizationId) {
      for (const [id, p] of providers) if (p.organizationId === organizationId) providers.delete(id);
      for (const [key, d] of domains) if (d.organizationId === organizationId) domains.delete(key);
    },
  };
}
