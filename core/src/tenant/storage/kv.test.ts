import { describe, expect, it } from 'vitest';
import { runTenantStorageConformance } from './conformance.js';
import { createKeyValueTenantStorage } from './kv.js';
import type { KeyValueNamespace } from './kv-namespace.js';

/** A KV namespace over a Map, with the string-only values of edge KV stores. */
function mapNamespace(): KeyValueNamespace & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get: async (key) => data.get(key) ?? null,
    put: async (key, value) => {
      if (typeof value !== 'string') throw new TypeError('KV values are strings');
      data.set(key, value);
    },
    delete: async (key) => void data.delete(key),
  };
}

runTenantStorageConformance('key-value ({get, put, delete})', async () => ({
  storage: createKeyValueTenantStorage(mapNamespace()),
}));

describe('createKeyValueTenantStorage', () => {
  it('keeps every key under the prefix (default "tenant:") and removes them all on delete', async () => {
    const ns = mapNamespace();
    const storage = createKeyValueTenantStorage(ns);
    const t = await storage.create({ id: 't1', slug: 'acme', name: 'Acme' });
    await storage.addMember({ tenantId: t.id, userId: 'u1', role: 'owner' });
    expect([...ns.data.keys()].sort()).toStrictEqual([
      'tenant:id:t1',
      'tenant:ids',
      'tenant:member:t1:u1',
      'tenant:members:t1',
      'tenant:memberships:u1',
      'tenant:slug:acme',
    ]);
    await storage.delete(t.id);
    expect([...ns.data.keys()]).toStrictEqual([]);
  });

  it('uses a custom prefix', async () => {
    const ns = mapNamespace();
    await createKeyValueTenantStorage(ns, { prefix: 'app1/' }).create({ id: 't1', slug: 'acme', name: 'Acme' });
    expect([...ns.data.keys()].every((k) => k.startsWith('app1/'))).toBe(true);
    expect(await createKeyValueTenantStorage(ns).get('acme')).toBeNull();
  });

  it('ignores a slug pointer left behind by an interrupted rename', async () => {
    const ns = mapNamespace();
    const storage = createKeyValueTenantStorage(ns);
    await storage.create({ id: 't1', slug: 'new', name: 'N' });
    ns.data.set('tenant:slug:old', JSON.stringify({ id: 't1' }));
    expect(await storage.get('old')).toBeNull();
    await expect(storage.create({ slug: 'old', name: 'Other' })).resolves.toMatchObject({ slug: 'old' });
  });

  it('accepts clients whose get returns parsed JSON (as @upstash/redis does)', async () => {
    const data = new Map<string, unknown>();
    const parsing = {
      get: async (key: string) => (data.has(key) ? JSON.parse(data.get(key) as string) : null),
      set: async (key: string, value: string) => void data.set(key, value),
      del: async (key: string) => void data.delete(key),
    };
    const storage = createKeyValueTenantStorage(parsing);
    const t = await storage.create({ slug: 'acme', name: 'Acme', settings: { a: [1] } });
    expect(await storage.get('acme')).toStrictEqual(t);
  });

  it('rejects anything that is neither a KV namespace nor a Redis client, and a non-string prefix', () => {
    expect(() => createKeyValueTenantStorage({ get: async () => null } as never)).toThrow(TypeError);
    expect(() => createKeyValueTenantStorage(null as never)).toThrow(/KV namespace/);
    expect(() => createKeyValueTenantStorage(mapNamespace(), { prefix: 1 as never })).toThrow(/prefix/);
  });
});
