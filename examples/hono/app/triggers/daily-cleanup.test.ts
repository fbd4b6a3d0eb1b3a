import { mockScheduledEvent, mockTriggerContext } from '@framework/trigger/testing';
import type { PurgeOptions, PurgeResult } from '@framework/auth';
import { expect, it, vi } from 'vitest';
import dailyCleanup from './daily-cleanup.js';

it('daily-cleanup purges in batches within a time budget, and says when more remain for the next run', async () => {
  const calls: [Date | undefined, PurgeOptions | undefined][] = [];
  const adapter = {
    async purgeExpired(now?: Date, options?: PurgeOptions): Promise<PurgeResult> {
      calls.push([now, options]);
      return { sessions: 2_000, verificationTokens: 0, more: true };
    },
  };
  const scheduledTime = new Date('2025-05-01T03:00:00Z');
  const info = vi.spyOn(console, 'info').mockImplementation(() => {});
  try {
    await dailyCleanup.handle(
      mockScheduledEvent({ scheduledTime }),
      mockTriggerContext({ env: { auth: { adapter } } }),
    );
    expect(info.mock.calls[0]?.[0]).toMatch(/purged 2000 expired session\(s\).*more remain for the next run/);
  } finally {
    info.mockRestore();
  }
  expect(calls).toHaveLength(1);
  const [now, options] = calls[0]!;
  expect(now).toStrictEqual(scheduledTime);
  expect(options?.batchSize).toBeLessThanOrEqual(5_000);
  // The budget leaves room inside the trigger's own timeout.
  expect(options?.budgetMs).toBeGreaterThan(0);
  expect(options?.budgetMs).toBeLessThan(120_000);
});
