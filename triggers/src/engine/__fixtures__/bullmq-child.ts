/**
 * A runtime on the BullMQ engine in its own process, for the multi-process
 * tests. Configured by the JSON in CHILD_CONFIG; prints one JSON line per
 * handled message (`{"n", "attempts"}`), batch start (`{"batch"}`) or
 * schedule firing (`{"fired"}`), overrunning run start and end (`{"start"}`,
 * `{"end"}` with the process's `running` count); `{"ready": true}` once started. SIGTERM stops
 * the runtime and exits.
 */
import { bullmqEngine } from '../bullmq.js';
import { scaledClock } from '../clock.js';
import { defineTrigger } from '../../define.js';
import { createTriggerRuntime } from '../../runtime/create.js';
import type { TriggerDefinition } from '../../types.js';

interface ChildConfig {
  redisUrl: string;
  prefix: string;
  mode: 'queue' | 'schedule' | 'poison' | 'slow-schedule' | 'steps' | 'overrun';
  batchSize?: number;
  handlerDelayMs?: number;
  epoch?: number;
  scale?: number;
}

const config = JSON.parse(process.env.CHILD_CONFIG ?? '{}') as ChildConfig;
const print = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`);
const quiet = { observability: { metrics: false, tracing: false } } as const;

const poison: Record<string, TriggerDefinition<any, any>> = {
  work: defineTrigger({
    source: { type: 'queue', name: 'work', batchSize: 1, batchTimeout: '50ms', deadLetterQueue: 'work-dlq' },
    config: { ...quiet, retries: 1 },
    handle: (event) => {
      for (const message of event.messages) {
        print({ poisoned: message.attempts });
        // Dies the way an out-of-memory kill or a native crash would.
        if ((message.body as { poison?: boolean }).poison) process.kill(process.pid, 'SIGKILL');
      }
    },
  }),
};

const slowSchedule: Record<string, TriggerDefinition<any, any>> = {
  tick: defineTrigger({
    source: { type: 'scheduled', cron: '* * * * *' },
    config: { ...quiet, retries: 0 },
    handle: async () => {
      print({ started: Date.now() });
      await new Promise((resolve) => setTimeout(resolve, config.handlerDelayMs ?? 2_500));
      print({ ended: Date.now() });
    },
  }),
};

const steps: Record<string, TriggerDefinition<any, any>> = {
  work: defineTrigger({
    source: { type: 'queue', name: 'work', batchSize: 1, batchTimeout: '20ms' },
    config: { ...quiet, retries: 3 },
    handle: async (event, ctx) => {
      const { n } = event.messages[0]!.body as { n: number };
      await ctx.step.run('one', () => print({ step: 'one', n }));
      // The first delivery dies between the steps.
      if (event.messages[0]!.attempts === 1) process.kill(process.pid, 'SIGKILL');
      await ctx.step.run('two', () => print({ step: 'two', n }));
      print({ finished: n });
    },
  }),
};

/** Ignores ctx.signal and runs 3× past timeout + gracePeriod (200 ms), two at once per process at most. */
let running = 0;
const overrun: Record<string, TriggerDefinition<any, any>> = {
  work: defineTrigger({
    source: { type: 'queue', name: 'work', batchSize: 1, batchTimeout: '20ms', retryDelay: '1ms' },
    config: { ...quiet, concurrency: 2, retries: 1, timeout: '100ms', gracePeriod: '100ms' },
    handle: async (event) => {
      const { n } = event.messages[0]!.body as { n: number };
      running++;
      print({ start: n, running, at: Date.now() });
      await new Promise((resolve) => setTimeout(resolve, config.handlerDelayMs ?? 600));
      running--;
      print({ end: n, at: Date.now() });
    },
  }),
};

const triggers: Record<string, TriggerDefinition<any, any>> = config.mode === 'overrun'
  ? overrun
  : config.mode === 'steps'
    ? steps
    : config.mode === 'slow-schedule'
      ? slowSchedule
      : config.mode === 'poison'
        ? poison
        : config.mode === 'queue'
          ? {
              work: defineTrigger({
                source: { type: 'queue', name: 'work', batchSize: config.batchSize ?? 10, batchTimeout: '50ms' },
                config: quiet,
                handle: async (event) => {
                  print({ batch: event.messages.length });
                  if (config.handlerDelayMs) await new Promise((resolve) => setTimeout(resolve, config.handlerDelayMs));
                  for (const message of event.messages)
                    print({ n: (message.body as { n: number }).n, attempts: message.attempts });
                },
              }),
            }
          : {
              tick: defineTrigger({
                source: { type: 'scheduled', cron: '* * * * *' },
                config: quiet,
                handle: (event) => void print({ fired: event.scheduledTime.toISOString() }),
              }),
            };

const runtime = createTriggerRuntime({
  name: 'multi',
  env: {},
  triggers,
  engine: bullmqEngine({
    connection: config.redisUrl,
    prefix: config.prefix,
    lockDuration: '1s',
    stalledInterval: '500ms',
    ...(config.scale ? { clock: scaledClock({ scale: config.scale, epoch: config.epoch ?? Date.now() }) } : {}),
  }),
});
await runtime.start();
print({ ready: true });
process.on('SIGTERM', () => {
  void runtime.stop({ timeout: '2s' }).finally(() => process.exit(0));
});
