import { describe, expect, it, vi } from 'vitest';
import { createMemoryAdapter } from '../storage/memory.js';
import { cacheSessions, type Invalidation } from './session-cache.js';

async function setup(options: { ttlMs?: number; maxEntries?: number } = {}) {
  const inner = createMemoryAdapter();
  const user = await inner.createUser({ email: 'ada@example.com', name: 'Ada', emailVerified: null });
  const session = (id: string) =>
    inner.createSession({
      id,
      tokenHash: 'h'.repeat(64),
      userId: user.id,
      expires: new Date(Date.now() + 3_600_000),
      createdAt: new Date(),
    });
  const sent: Invalidation[] = [];
  let live = true;
  const reads = vi.spyOn(inner, 'getSessionAndUser');
  const cache = cacheSessions(inner, { live: () => live, publish: async (m) => void sent.push(m) }, options);
  return { inner, user, session, sent, cache, reads, setLive: (v: boolean) => (live = v) };
}

describe('cacheSessions', () => {
  it('serves a read from memory until ttlMs passes, then reads storage again', async () => {
    vi.useFakeTimers({ now: 1_000_000, toFake: ['Date'] });
    try {
      const { cache, session, inner, reads } = await setup({ ttlMs: 2000 });
      await session('s1');
      await cache.adapter.getSessionAndUser('s1');
      await inner.deleteSession('s1'); // behind the cache's back, as if a publish was lost
      expect(await cache.adapter.getSessionAndUser('s1')).not.toBeNull();
      vi.setSystemTime(1_000_000 + 2000);
      expect(await cache.adapter.getSessionAndUser('s1')).toBeNull();
      expect(reads).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('publishes and applies invalidations for session and user writes', async () => {
    const { cache, session, user, sent } = await setup();
    await session('s1');
    expect(await cache.adapter.getSessionAndUser('s1')).not.toBeNull();
    await cache.adapter.updateUser(user.id, { role: 'admin' });
    expect((await cache.adapter.getSessionAndUser('s1'))?.user.role).toBe('admin');
    await cache.adapter.deleteSession('s1');
    expect(await cache.adapter.getSessionAndUser('s1')).toBeNull();
    expect(sent).toEqual([
      { kind: 'u', id: user.id },
      { kind: 's', id: 's1' },
    ]);
  });

  it('bypasses the cache while the bus is not live, and keeps at most maxEntries', async () => {
    const { cache, session, reads, setLive } = await setup({ maxEntries: 1 });
    await session('s1');
    await session('s2');
    setLive(false);
    await cache.adapter.getSessionAndUser('s1');
    await cache.adapter.getSessionAndUser('s1');
    expect(reads).toHaveBeenCalledTimes(2);
    setLive(true);
    await cache.adapter.getSessionAndUser('s1');
    await cache.adapter.getSessionAndUser('s2'); // evicts s1
    await cache.adapter.getSessionAndUser('s1');
    expect(reads).toHaveBeenCalledTimes(5);
  });
});
