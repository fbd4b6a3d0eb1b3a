/**
 * `createKeyValueTenantStorage`: tenants and memberships as JSON documents in
 * a KV namespace or Redis.
 * @module
 */
import { StorageConflictError } from '../../storage/types.js';
import type { Tenant, TenantMembership, TenantStorage } from '../types.js';
import { keyPage, takesOwner, tenantStorage, type TenantBackend } from './backend.js';
import { jsonStore, type TenantKeyValueStore } from './kv-namespace.js';

export type { KeyValueNamespace, RedisLikeClient, TenantKeyValueStore } from './kv-namespace.js';

/** Options of {@link createKeyValueTenantStorage}. */
export interface KeyValueTenantStorageOptions {
  /** Prefix of every key. Default `tenant:`. */
  prefix?: string;
}

type TenantDoc = Omit<Tenant, 'createdAt' | 'updatedAt'> & { createdAt: number; updatedAt: number };
type MemberDoc = Omit<TenantMembership, 'createdAt'> & { createdAt: number };

const fromDoc = ({ createdAt, updatedAt, ...rest }: TenantDoc): Tenant => ({
  ...rest,
  createdAt: new Date(createdAt),
  updatedAt: new Date(updatedAt),
});
const toDoc = (t: Tenant): TenantDoc => ({ ...t, createdAt: t.createdAt.getTime(), updatedAt: t.updatedAt.getTime() });
const memberFromDoc = (m: MemberDoc): TenantMembership => ({ ...m, createdAt: new Date(m.createdAt) });

/**
 * Creates a tenant storage over a key-value store (spec:
 * `createKeyValueTenantStorage(namespace, {prefix})`, default prefix
 * `tenant:`). `namespace` is one of:
 * - a KV namespace with `get(key)`, `put(key, value)`, `delete(key)` (string values);
 * - a connected node-redis client (`createClient(...)`, after `connect()`);
 * - an `@upstash/redis` client (its automatic JSON parsing is handled).
 *
 * Keys (after the prefix): `id:<id>` and `slug:<slug>` (the tenant and a
 * pointer to it), `ids` (every tenant id, for `list`), `member:<tenantId>:<userId>`,
 * `members:<tenantId>` and `memberships:<userId>` (JSON arrays). Writes
 * through one storage object run one at a time; writes from several
 * processes to the same tenant are not atomic across keys (KV stores offer
 * no transactions), so run tenant administration from one place. Lookups
 * (`get`, `getMember`) are one or two key reads. `migrate()` does nothing.
 *
 * Guarded membership changes (`removeMember`/`addMember` with `{ keepOwner }`, which `organizations()` uses so an
 * organization never loses its last owner) are check-then-write here: atomic among the writes of one storage
 * object, but best-effort across processes or isolates, and a KV namespace's eventual consistency can hide a
 * concurrent change for a while. Where that rule must hold under concurrent requests from several processes, keep
 * memberships in SQL (`createSqlTenantStorage`).
 *
 * @throws TypeError at creation when `namespace` is none of the above or `prefix` is not a string.
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { createKeyValueTenantStorage } from '@framework/auth/tenant';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const tenants = createKeyValueTenantStorage(redis, { prefix: 'myapp:tenant:' });
 * await tenants.create({ slug: 'acme', name: 'Acme Inc.' });
 * // On an edge runtime: createKeyValueTenantStorage(env.TENANTS)
 * ```
 */
export function createKeyValueTenantStorage(
  namespace: TenantKeyValueStore,
  options: KeyValueTenantStorageOptions = {},
): TenantStorage {
  const prefix = options.prefix ?? 'tenant:';
  if (typeof prefix !== 'string') throw new TypeError('prefix must be a string');
  const store = jsonStore(namespace);
  const key = {
    id: (id: string) => `${prefix}id:${id}`,
    slug: (slug: string) => `${prefix}slug:${slug}`,
    ids: `${prefix}ids`,
    member: (tenantId: string, userId: string) => `${prefix}member:${tenantId}:${userId}`,
    members: (tenantId: string) => `${prefix}members:${tenantId}`,
    memberships: (userId: string) => `${prefix}memberships:${userId}`,
  };

  let queue: Promise<unknown> = Promise.resolve();
  /** Runs writes one at a time, so read-modify-write of the index keys never loses an update in this process. */
  function exclusive<T>(write: () => Promise<T>): Promise<T> {
    const run = queue.then(write, write);
    queue = run.catch(() => undefined);
    return run;
  }

  async function edit(listKey: string, change: (list: string[]) => string[]): Promise<void> {
    const list = change((await store.read<string[]>(listKey)) ?? []);
    if (list.length === 0) await store.remove(listKey);
    else await store.write(listKey, list);
  }
  const add = (listKey: string, value: string) =>
    edit(listKey, (list) => (list.includes(value) ? list : [...list, value]));
  const drop = (listKey: string, value: string) => edit(listKey, (list) => list.filter((v) => v !== value));

  const byId = async (id: string) => {
    const doc = await store.read<TenantDoc>(key.id(id));
    return doc ? fromDoc(doc) : null;
  };
  const member = async (tenantId: string, userId: string) => {
    const doc = await store.read<MemberDoc>(key.member(tenantId, userId));
    return doc ? memberFromDoc(doc) : null;
  };
  /** Writes a membership and its two index entries (inside `exclusive`). */
  async function link(m: TenantMembership): Promise<void> {
    await store.write(key.member(m.tenantId, m.userId), { ...m, createdAt: m.createdAt.getTime() });
    await add(key.members(m.tenantId), m.userId);
    await add(key.memberships(m.userId), m.tenantId);
  }
  /** Removes a membership and its two index entries (inside `exclusive`). */
  async function unlink(tenantId: string, userId: string): Promise<void> {
    await store.remove(key.member(tenantId, userId));
    await drop(key.members(tenantId), userId);
    await drop(key.memberships(userId), tenantId);
  }
  const present = <T>(list: (T | null)[]) => list.filter((v): v is T => v !== null);

  const backend: TenantBackend = {
    migrate: async () => {},
    byId,
    async bySlug(slug) {
      const pointer = await store.read<{ id: string }>(key.slug(slug));
      const tenant = pointer ? await byId(pointer.id) : null;
      return tenant?.slug === slug ? tenant : null;
    },
    // The key-value layout keeps one id list per collection: a page reads that list, then only its own records.
    tenantsAfter: async (after, limit) =>
      present(await Promise.all(keyPage((await store.read<string[]>(key.ids)) ?? [], String, after, limit).map(byId))),
    insert: (tenant) =>
      exclusive(async () => {
        if (await store.read(key.id(tenant.id))) throw new StorageConflictError('Tenant id is taken', 'id');
        if (await backend.bySlug(tenant.slug)) throw new StorageConflictError('Tenant slug is taken', 'slug');
        await store.write(key.id(tenant.id), toDoc(tenant));
        await store.write(key.slug(tenant.slug), { id: tenant.id });
        await add(key.ids, tenant.id);
      }),
    replace: (next, previous) =>
      exclusive(async () => {
        const holder = next.slug === previous.slug ? null : await backend.bySlug(next.slug);
        if (holder && holder.id !== next.id) throw new StorageConflictError('Tenant slug is taken', 'slug');
        await store.write(key.id(next.id), toDoc(next));
        if (next.slug !== previous.slug) {
          await store.write(key.slug(next.slug), { id: next.id });
          await store.remove(key.slug(previous.slug));
        }
      }),
    remove: (id) =>
      exclusive(async () => {
        const tenant = await byId(id);
        if (!tenant) return false;
        for (const userId of (await store.read<string[]>(key.members(id))) ?? []) {
          await store.remove(key.member(id, userId));
          await drop(key.memberships(userId), id);
        }
        await store.remove(key.members(id));
        await store.remove(key.slug(tenant.slug));
        await store.remove(key.id(id));
        await drop(key.ids, id);
        return true;
      }),
    putMember: (m) => exclusive(() => link(m)),
    member,
    membersAfter: async (tenantId, after, limit) =>
      present(
        await Promise.all(
          keyPage((await store.read<string[]>(key.members(tenantId))) ?? [], String, after, limit).map((u) =>
            member(tenantId, u),
          ),
        ),
      ),
    memberships: async (userId) =>
      present(
        await Promise.all(((await store.read<string[]>(key.memberships(userId))) ?? []).map((t) => member(t, userId))),
      ),
    removeMember: (tenantId, userId) =>
      exclusive(async () => {
        if (!(await member(tenantId, userId))) return false;
        await unlink(tenantId, userId);
        return true;
      }),
    // Check-then-write, serialized within this object only (see the note above on other processes).
    guardedChange: (change) =>
      exclusive(async () => {
        const { tenantId, userId, role, keepOwner } = change;
        const current = await member(tenantId, userId);
        if (takesOwner(current, change)) {
          const ids = (await store.read<string[]>(key.members(tenantId))) ?? [];
          const others = present(await Promise.all(ids.map((u) => member(tenantId, u))));
          if (!others.some((m) => m.userId !== userId && m.role === keepOwner)) return 'refused';
        }
        if (role === null) {
          if (!current) return null;
          await unlink(tenantId, userId);
          return current;
        }
        const next = { tenantId, userId, role, createdAt: current?.createdAt ?? change.createdAt };
        await link(next);
        return next;
      }),
  };
  return tenantStorage(backend);
}
