/** The trigger package's fake-clock runtime, re-exported here, works with the run matchers. */
import { describe, expect, it } from 'vitest';
import { defineTrigger } from '@framework/trigger';
import { createTestRuntime, recordRuns } from '@framework/testing';
import '@framework/testing/vitest';

describe('createTestRuntime from @framework/testing', () => {
  it('runs a nightly cron when the fake clock passes it, as toHaveRun sees', async () => {
    const runtime = createTestRuntime({
      now: new Date('2025-01-01T00:00:00Z'),
      triggers: {
        nightly: defineTrigger({ source: { type: 'scheduled', cron: '0 3 * * *' }, handle: () => 'done' }),
      },
    });
    const runs = recordRuns(runtime);
    await runtime.advanceTime('2h');
    expect(runs).not.toHaveRun('nightly');
    await runtime.advanceTime('2h');
    expect(runs).toHaveRun('nightly', { times: 1, with: { status: 'ok' } });
    expect(runtime).toHaveRun('nightly', { times: 1 });
    runs.stop();
    await runtime.stop();
  });
});
