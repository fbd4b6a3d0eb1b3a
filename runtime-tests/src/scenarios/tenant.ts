/** The tenant resolver over memory storage: subdomain and path strategies, membership. */
import { createMemoryTenantStorage, createTenantResolver } from '@framework/auth/tenant';
import { check, same, type Scenario } from '../scenario.js';

export const tenantScenarios: Scenario[] = [
  {
    name: 'tenant: resolves by subdomain and path, and checks membership',
    async run() {
      const storage = createMemoryTenantStorage();
      await storage.migrate();
      const acme = await storage.create({ slug: 'acme', name: 'Acme' });
      await storage.addMember({ tenantId: acme.id, userId: 'u1', role: 'owner' });
      const bySubdomain = createTenantResolver(storage, { strategy: 'subdomain', baseDomain: 'example.com' });
      same((await bySubdomain.resolve(new Request('https://acme.example.com/')))?.id, acme.id, 'subdomain');
      same(await bySubdomain.resolve(new Request('https://evilacme.com/')), null, 'look-alike domain');
      const byPath = createTenantResolver(storage, { strategy: 'path' });
      const request = new Request('https://app.test/t/acme/dashboard');
      same((await byPath.requireMember(request, { id: 'u1' })).membership.role, 'owner', 'member role');
      const refused = await byPath.requireMember(request, { id: 'u2' }).then(
        () => null,
        (error: { status?: number }) => error.status,
      );
      same(refused, 403, 'non-member');
      const missing = await byPath
        .require(new Request('https://app.test/t/nope/'))
        .catch((error: { code?: string }) => error.code);
      check(missing === 'TENANT_NOT_FOUND', `unknown tenant gave ${String(missing)}`);
    },
  },
];
