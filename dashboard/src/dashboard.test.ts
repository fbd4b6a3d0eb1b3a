/**
 * The triggers view end to end over a memory runtime: definitions with the
 * next schedule occurrences, runs and their logs, queue counts, dead letters
 * replayed and discarded through CSRF-checked POSTs, the chart data, the live
 * tail and the static assets.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createTriggerRuntime, defineTrigger } from '@framework/trigger';
import { createDashboard } from './dashboard.js';
import { LOCAL, ORIGIN, postForm, readPage } from './form.test-helpers.js';

let failing = true;
const runtime = createTriggerRuntime({
  env: {},
  triggers: {
    nightly: defineTrigger({
      source: { type: 'scheduled', cron: '30 2 * * *', timezone: 'Europe/Paris' },
      handle: () => {},
    }),
    hook: defineTrigger({
      source: { type: 'webhook', path: '/hook' },
      handle: (event, ctx) => {
        ctx.emit('jobs-consumer', { from: 'hook' });
      },
    }),
    'jobs-consumer': defineTrigger({
      source: { type: 'queue', name: 'jobs', batchSize: 1, batchTimeout: '0s', deadLetterQueue: 'jobs-dlq' },
      config: { retries: 0 },
      handle: () => {
        if (failing) throw new Error('downstream unavailable');
      },
    }),
  },
});
const dashboard = createDashboard({ runtime, mode: 'development' });
await runtime.start();
afterAll(async () => {
  dashboard.close();
  await runtime.stop();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  dashboard.fetch(new Request(`${ORIGIN}${path}`, { headers: { accept: 'text/html', ...headers } }), LOCAL);

const page = () => readPage(dashboard);
const post = (path: string, fields: Record<string, string>, headers: Record<string, string>) =>
  postForm(dashboard, path, fields, headers);

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('dashboard triggers view', () => {
  it('lists every trigger with its source, config and the next 5 occurrences in its timezone', async () => {
    const { html } = await page();
    for (const name of ['nightly', 'hook', 'jobs-consumer']) expect(html).toContain(`data-trigger="${name}"`);
    const next = [...html.matchAll(/<li><time datetime="([^"]+)">([^<]+)<\/time>/g)];
    expect(next).toHaveLength(5);
    // 02:30 in Paris is 00:30 or 01:30 UTC depending on daylight saving time.
    for (const [, iso, local] of next) {
      expect(local).toMatch(/ 02:30$/);
      expect(iso).toMatch(/T0[01]:30:00\.000Z$/);
    }
    expect(html).toContain('Europe/Paris');
    expect(html).toContain('&quot;retries&quot;:0');
  });

  it('shows a run with its status, trace id and log lines, then the dead letter; replay succeeds', async () => {
    await runtime.dispatch('hook', { payload: { n: 1 } });
    await until(async () => (await runtime.inspectQueues())[0]!.deadLettered === 1);
    const { html, token, cookie } = await page();
    const hookRun = dashboard.history!.recent({ trigger: 'hook' })[0]!;
    expect(html).toContain(`data-run="${hookRun.id}"`);
    expect(html).toContain(hookRun.traceId);
    const failedRun = dashboard.history!.recent({ trigger: 'jobs-consumer' })[0]!;
    expect(failedRun).toMatchObject({ status: 'exception', error: 'downstream unavailable' });

    const runPage = await (await get(`/_framework/runs/${encodeURIComponent(failedRun.id)}`))!.text();
    expect(runPage).toContain('attempt 1 failed: downstream unavailable');

    expect(html).toMatch(
      /<tr data-queue="jobs"><td>jobs<\/td><td>jobs-consumer<\/td><td>running <form[^]*?<\/form><\/td><td>0<\/td><td>0<\/td><td>0<\/td><td>1<\/td><td>jobs-dlq<\/td>/,
    );
    const id = /<tr data-message="([^"]+)"/.exec(html)?.[1];
    expect(id).toBeTruthy();

    failing = false;
    const res = await post('/_framework/queues/jobs-consumer/replay', { csrfToken: token, id: id! }, { cookie });
    expect(res?.status).toBe(303);
    expect(res!.headers.get('location')).toBe(`/_framework/?replayed=${encodeURIComponent(id!)}`);
    expect(await (await get(res!.headers.get('location')!))!.text()).toContain(`Replayed message ${id}.`);
    expect(await (await get('/_framework/?notice=Go%20to%20evil.example'))!.text()).not.toContain('evil.example');
    await until(async () => dashboard.history!.recent({ trigger: 'jobs-consumer' })[0]!.status === 'ok');
    expect(dashboard.history!.recent({ trigger: 'jobs-consumer' })[0]!.status).toBe('ok');
    expect((await page()).html).toContain('No failed or dead-lettered messages.');
    failing = true;
  });

  it('refuses replay and discard without the token, with a foreign token or Origin (403), and discards with it', async () => {
    await runtime.queue('jobs').send({ n: 2 });
    await until(async () => (await runtime.inspectQueues())[0]!.deadLettered === 1);
    const { token, cookie } = await page();
    const id = (await runtime.inspectQueues())[0]!.messages[0]!.id;
    const codeOf = async (res: Response | null) => ((await res!.json()) as { error: { code: string } }).error.code;
    const json = { accept: 'application/json' };
    expect(await codeOf(await post('/_framework/queues/jobs-consumer/discard', { id }, { cookie, ...json }))).toBe(
      'CSRF_TOKEN_INVALID',
    );
    expect(
      await codeOf(
        await post('/_framework/queues/jobs-consumer/discard', { id, csrfToken: `${token}x` }, { cookie, ...json }),
      ),
    ).toBe('CSRF_TOKEN_INVALID');
    expect(
      await codeOf(await post('/_framework/queues/jobs-consumer/discard', { id, csrfToken: token }, { ...json })),
    ).toBe('CSRF_TOKEN_INVALID');
    const forged = await post(
      '/_framework/queues/jobs-consumer/discard',
      { id, csrfToken: token },
      { cookie, origin: 'http://evil.example', ...json },
    );
    expect(forged?.status).toBe(403);
    expect(await codeOf(forged)).toBe('CSRF_ORIGIN_MISMATCH');
    expect((await runtime.inspectQueues())[0]!.deadLettered).toBe(1);

    const ok = await post('/_framework/queues/jobs-consumer/discard', { id, csrfToken: token }, { cookie, ...json });
    expect(await ok!.json()).toEqual({ ids: [id] });
    expect((await runtime.inspectQueues())[0]!.deadLettered).toBe(0);
    const unknown = await post('/_framework/queues/nope/replay', { id, csrfToken: token }, { cookie, ...json });
    expect(unknown?.status).toBe(404);
    const notQueue = await post('/_framework/queues/hook/replay', { id, csrfToken: token }, { cookie, ...json });
    expect(await codeOf(notQueue)).toBe('NOT_A_QUEUE_TRIGGER');
  });

  it('serves the last hour per minute for the chart', async () => {
    const data = (await (await get('/_framework/api/throughput', { accept: 'application/json' }))!.json()) as {
      minutes: number[];
      runs: number[];
      errors: number[];
    };
    expect(data.minutes).toHaveLength(60);
    expect(data.runs.reduce((a, b) => a + b, 0)).toBe(dashboard.history!.recent({ limit: 1000 }).length);
    expect(data.errors.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2);
  });

  it('streams new runs over Server-Sent Events', async () => {
    const controller = new AbortController();
    const res = await dashboard.fetch(new Request(`${ORIGIN}/_framework/events`, { signal: controller.signal }), LOCAL);
    expect(res!.headers.get('content-type')).toContain('text/event-stream');
    const reader = res!.body!.getReader();
    await reader.read(); // ": connected"
    await runtime.dispatch('hook', { payload: { n: 3 } });
    // The hook's run and the queue run its emit starts end close together: either may be sent first.
    const events: string[] = [];
    while (!events.some((event) => event.includes('"trigger":"hook"'))) {
      const { value } = await reader.read();
      events.push(...new TextDecoder().decode(value).split('\n\n').filter(Boolean));
    }
    for (const event of events) {
      expect(event).toMatch(/^event: run\ndata: \{.*"trigger":"(hook|jobs-consumer)"/);
      expect(event).not.toContain('"logs"');
    }
    expect(events.find((event) => event.includes('"trigger":"hook"'))).toMatch(/"status":"ok"/);
    controller.abort();
  });

  it('serves uPlot and its own assets, and 404s unknown pages', async () => {
    const uplot = await get('/_framework/assets/uplot.js');
    expect(uplot?.status).toBe(200);
    expect(await uplot!.text()).toContain('uPlot');
    expect((await get('/_framework/assets/dashboard.js'))!.headers.get('content-type')).toContain('javascript');
    expect((await get('/_framework/assets/nope.js'))?.status).toBe(404);
    expect((await get('/_framework/assets/%2e%2e%2fpackage.json'))?.status).toBe(404);
    expect((await get('/_framework/runs/nope'))?.status).toBe(404);
    // Other paths under the base are left to the app once access is granted.
    expect(await get('/_framework/elsewhere')).toBeNull();
  });
});

describe('dashboard POST bodies', () => {
  it('answers 415 to a non-form body and 413 to an oversized form, before any CSRF check', async () => {
    const send = (body: string, type: string) =>
      dashboard.fetch(
        new Request(`${ORIGIN}/_framework/queues/jobs-consumer/replay`, {
          method: 'POST',
          headers: { 'content-type': type, origin: ORIGIN, accept: 'application/json' },
          body,
        }),
        LOCAL,
      );
    expect((await send('{"id":"x"}', 'application/json'))?.status).toBe(415);
    const big = await send(`id=${'x'.repeat(20_000)}`, 'application/x-www-form-urlencoded');
    expect(big?.status).toBe(413);
    expect(await big!.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
  });
});
