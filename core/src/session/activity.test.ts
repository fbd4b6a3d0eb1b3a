/**
 * Database sessions record their client at issue, and `lastActiveAt` at most
 * once an hour between sliding refreshes, so most reads do not write.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeFixture } from '../testing/fixtures.js';
import { createMemoryAdapter } from '../storage/memory.js';
import type { StorageAdapter } from '../storage/types.js';

afterEach(() => {
  vi.useRealTimers();
});

function countingWrites(): { adapter: StorageAdapter; writes: () => number } {
  const inner = createMemoryAdapter();
  let writes = 0;
  const adapter: StorageAdapter = {
    ...inner,
    updateSessionExpiry: (...args) => (writes++, inner.updateSessionExpiry(...args)),
  };
  return { adapter, writes: () => writes };
}

describe('database session activity', () => {
  it('records User-Agent, IP and times at issue; reads within the hour do not write', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { adapter, writes } = countingWrites();
    const { client, userId } = await makeFixture('database', { adapter });
    const c = client();
    c.ip = '192.0.2.44';
    await c.postJson(
      '/auth/callback/credentials',
      { email: 'ada@example.com', password: 'analytical-engine' },
      { 'user-agent': 'x'.repeat(600) },
    );
    const [session] = await adapter.listSessions(userId);
    expect(session).toMatchObject({ ip: '192.0.2.44', userAgent: 'x'.repeat(512) });
    expect(session!.lastActiveAt).toStrictEqual(session!.createdAt);

    for (let i = 0; i < 5; i++) await c.session();
    expect(writes()).toBe(0);
    vi.setSystemTime(Date.now() + 3_600_000);
    await c.session();
    await c.session();
    expect(writes()).toBe(1);
    const [after] = await adapter.listSessions(userId);
    expect(after!.lastActiveAt!.getTime() - session!.createdAt.getTime()).toBeGreaterThanOrEqual(3_600_000);
    expect(after!.expires).toStrictEqual(session!.expires);
  });

  it('a sliding refresh records the activity in the same write', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { adapter, writes } = countingWrites();
    const { client, userId } = await makeFixture('database', {
      adapter,
      session: { strategy: 'database', updateAge: 60 },
    });
    const c = client();
    await c.signIn();
    vi.setSystemTime(Date.now() + 61_000);
    await c.session();
    expect(writes()).toBe(1);
    const [session] = await adapter.listSessions(userId);
    expect(session!.lastActiveAt!.getTime()).toBeGreaterThan(session!.createdAt.getTime());
  });
});
