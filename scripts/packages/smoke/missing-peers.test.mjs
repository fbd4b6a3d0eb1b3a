// @framework/trigger installs none of its optional peers: the in-process engine works without them, and the
// BullMQ engine names the package to install.
import { describe, expect, it } from 'vitest';
import { bullmqEngine, createTriggerRuntime, defineTrigger, memoryEngine } from '@framework/trigger';

const triggers = {
  work: defineTrigger({
    source: { type: 'queue', name: 'work' },
    config: { observability: { metrics: false, tracing: false } },
    handle: async () => {},
  }),
};

describe('@framework/trigger without its optional peers', () => {
  it('runs a queue trigger on the in-process engine', async () => {
    const runtime = createTriggerRuntime({ env: {}, engine: memoryEngine(), triggers });
    await runtime.start();
    await runtime.stop();
  });

  it('bullmqEngine fails start() with MISSING_DEPENDENCY and the install command', async () => {
    const runtime = createTriggerRuntime({
      env: {},
      engine: bullmqEngine({ connection: 'redis://127.0.0.1:6379' }),
      triggers,
    });
    const error = await runtime.start().catch((e) => e);
    expect(error).toMatchObject({ code: 'MISSING_DEPENDENCY' });
    expect(error.message).toMatch(/npm install (bullmq|redis)/);
  });
});
