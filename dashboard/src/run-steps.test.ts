/**
 * A run's page lists the durable steps of its run, read from the engine's step store (memory engine and
 * BullMQ on real Redis): id, kind, status, times, attempts and output, every value HTML-escaped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  bullmqEngine,
  createTriggerRuntime,
  defineTrigger,
  memoryEngine,
  type TriggerEngine,
} from '@framework/trigger';
import { serviceAvailable } from '../../test-support/services.js';
import { deletePrefix, REDIS_URL, testPrefix } from '../../triggers/src/engine/bullmq-test-support.js';
import { createDashboard, type Dashboard } from './dashboard.js';
import { LOCAL, ORIGIN } from './form.test-helpers.js';

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');

const HOSTILE = '</script><img src=x onerror=alert(1)>';
const quiet = { observability: { metrics: false, tracing: false } } as const;

const engines: Array<[string, boolean, () => { engine: TriggerEngine; cleanup: () => Promise<void> }]> = [
  ['memory', true, () => ({ engine: memoryEngine(), cleanup: async () => {} })],
  [
    'bullmq',
    redisUp,
    () => {
      const prefix = testPrefix();
      return { engine: bullmqEngine({ connection: REDIS_URL, prefix }), cleanup: () => deletePrefix(prefix) };
    },
  ],
];

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the condition');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(engines)("a run's page shows its steps (%s)", (_name, available, make) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it.skipIf(!available)(
    'in order, with kind, status, times, attempts and escaped, truncated output',
    async () => {
      const { engine, cleanup } = make();
      let calls = 0;
      const runtime = createTriggerRuntime({
        name: 'dashboard-steps',
        env: {},
        engine,
        triggers: {
          orders: defineTrigger({
            source: { type: 'queue', name: 'step-orders', batchSize: 1, batchTimeout: '0ms', retryDelay: '1ms' },
            config: { ...quiet, retries: 2 },
            handle: async (_event, ctx) => {
              await ctx.step.run('reserve', () => ({ note: HOSTILE, long: 'x'.repeat(500) }));
              await ctx.step.run('charge', () => {
                if (++calls === 1) throw new Error(`declined ${HOSTILE}`);
                return 42;
              });
              await ctx.step.sleep('pause', '10ms');
              return 'done';
            },
          }),
        },
      });
      const dashboard: Dashboard = createDashboard({ runtime, mode: 'development' });
      cleanups.push(
        cleanup,
        () => runtime.stop({ timeout: '2s' }),
        async () => dashboard.close(),
      );
      await runtime.start();
      await runtime.queue('step-orders').send({ n: 1 });
      await until(() => dashboard.history!.recent({ trigger: 'orders' }).some((r) => r.status === 'ok'));
      // The three attempts (threw, slept, finished) may start in the same millisecond: pick them by outcome.
      const attempts = dashboard.history!.recent({ trigger: 'orders' });
      const ok = attempts.find((run) => run.status === 'ok');
      const failed = attempts.find((run) => run.status === 'exception');
      expect(ok!.stepsId).toBeDefined();
      const get = async (id: string) =>
        (await dashboard.fetch(
          new Request(`${ORIGIN}/_framework/runs/${encodeURIComponent(id)}`, { headers: { accept: 'text/html' } }),
          LOCAL,
        ))!.text();

      const page = await get(ok!.id);
      const rows = [...page.matchAll(/<tr data-step="([^"]+)">(.*?)<\/tr>/g)];
      expect(rows.map((row) => row[1])).toEqual(['reserve', 'charge', 'pause']);
      const cells = (row: string) => [...row.matchAll(/<td>(.*?)<\/td>/g)].map((cell) => cell[1]!);
      const [reserve, charge, pause] = rows.map((row) => cells(row[2]!));
      expect(reserve!.slice(1, 3)).toEqual(['run', '<span class="status completed">completed</span>']);
      expect(reserve![3]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(reserve![5]).toMatch(/^\d+ ms$/);
      expect(charge!.slice(1, 2).concat(charge![6]!)).toEqual(['run', '2']);
      expect(charge![7]).toBe('<code data-step-output>42</code>');
      expect(pause![1]).toBe('sleep');
      // The hostile output is escaped and cut at 200 characters.
      expect(page).not.toContain(HOSTILE);
      expect(page).not.toContain('<img');
      expect(reserve![7]).toContain('&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;');
      expect(reserve![7]).toMatch(/x…<\/code>$/);
      expect(reserve![7]!.length).toBeLessThan(400);

      // The first attempt's page shows the same run's steps (read now, after the run completed).
      expect(attempts.map((run) => run.status).sort()).toEqual(['exception', 'ok', 'suspended']);
      const earlier = await get(failed!.id);
      expect(earlier).toContain('data-step="charge"');
      expect(earlier).not.toContain(`declined ${HOSTILE}`);
    },
    60_000,
  );
});

describe("a run's page without steps", () => {
  it('says so for a run that used none, and leaves the section out for a runtime that cannot read them', async () => {
    const runtime = createTriggerRuntime({
      env: {},
      triggers: { plain: defineTrigger({ source: { type: 'email' }, config: quiet, handle: () => 'ok' }) },
    });
    const dashboard = createDashboard({ runtime, mode: 'development' });
    const { getSteps: _getSteps, ...withoutSteps } = runtime;
    const older = createDashboard({ runtime: withoutSteps as never, mode: 'development' });
    try {
      await runtime.dispatch('plain', {});
      const run = dashboard.history!.recent({ trigger: 'plain' })[0]!;
      const res = await dashboard.fetch(
        new Request(`${ORIGIN}/_framework/runs/${encodeURIComponent(run.id)}`, { headers: { accept: 'text/html' } }),
        LOCAL,
      );
      const text = await res!.text();
      expect(text).toContain('<h2>Steps</h2>');
      expect(text).toContain('No durable steps are stored for this run');
      const olderRun = older.history!.recent({ trigger: 'plain' })[0]!;
      const olderRes = await older.fetch(
        new Request(`${ORIGIN}/_framework/runs/${encodeURIComponent(olderRun.id)}`, {
          headers: { accept: 'text/html' },
        }),
        LOCAL,
      );
      expect(await olderRes!.text()).not.toContain('<h2>Steps</h2>');
    } finally {
      dashboard.close();
      older.close();
      await runtime.stop();
    }
  });
});
