import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryAdapter, passwordAccounts } from '@framework/auth';
import { createMemoryTenantStorage } from '@framework/auth/tenant';
import { openDemoTenantStorage } from './authorization.js';
import { DEMO_PASSWORD, DEMO_USERS, seed } from './seed.js';

describe('seed', () => {
  it('creates the demo users with roles and passwords, and the tenants with memberships', async () => {
    const adapter = createMemoryAdapter();
    const tenants = createMemoryTenantStorage();
    const result = await seed(adapter, tenants);
    for (const demo of DEMO_USERS) {
      const user = await passwordAccounts(adapter).authorize({ email: demo.email, password: DEMO_PASSWORD });
      expect(user).toMatchObject({ id: result.users[demo.email], role: demo.role });
    }
    const acme = (await tenants.get('acme'))!;
    expect(acme.name).toBe('Acme Inc.');
    const { members } = await tenants.listMembers(acme.id);
    expect(members.map((m) => [m.userId, m.role]).sort()).toStrictEqual(
      [
        [result.users['admin@example.com'], 'owner'],
        [result.users['editor@example.com'], 'member'],
      ].sort(),
    );
    expect(await tenants.getMember(acme.id, result.users['viewer@example.com']!)).toBeNull();
  });

  it('is idempotent and restores a changed role', async () => {
    const adapter = createMemoryAdapter();
    const tenants = createMemoryTenantStorage();
    const first = await seed(adapter, tenants);
    await adapter.updateUser(first.users['editor@example.com']!, { role: 'viewer' });
    const second = await seed(adapter, tenants);
    expect(second).toStrictEqual(first);
    expect((await tenants.list()).tenants).toHaveLength(2);
    expect((await adapter.getUser(first.users['editor@example.com']!))?.role).toBe('editor');
  });

  it('persists tenants in the SQLite file through openDemoTenantStorage', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seed-'));
    try {
      const file = join(dir, 'nested', 'app.db');
      const opened = await openDemoTenantStorage(file);
      await seed(createMemoryAdapter(), opened.tenants);
      await opened.close();
      const again = await openDemoTenantStorage(file);
      expect((await again.tenants.list()).tenants.map((t) => t.slug).sort()).toStrictEqual(['acme', 'globex']);
      await again.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
