/**
 * The triggers view's queue controls and event fan-out over a memory runtime: pause and resume of a
 * queue trigger's queue through CSRF-checked POSTs, the paused state on the page, and the events table.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createTriggerRuntime, defineTrigger } from '@framework/trigger';
import { createDashboard } from './dashboard.js';
import { postForm, readPage } from './form.test-helpers.js';

const runtime = createTriggerRuntime({
  env: {},
  triggers: {
    mailer: defineTrigger({
      source: { type: 'queue', name: 'mails', batchSize: 1, batchTimeout: '0s' },
      config: { events: ['user.created'] },
      handle: () => {},
    }),
    audit: defineTrigger({ source: { type: 'email' }, config: { events: ['user.created'] }, handle: () => {} }),
  },
});
const dashboard = createDashboard({ runtime, mode: 'development' });
await runtime.start();
afterAll(async () => {
  dashboard.close();
  await runtime.stop();
});

const page = (path?: string) => readPage(dashboard, path);
const post = (path: string, fields: Record<string, string>, headers: Record<string, string>) =>
  postForm(dashboard, path, fields, headers);

describe('dashboard queue controls', () => {
  it('lists each event with the triggers it fans out to', async () => {
    const { html } = await page();
    expect(html).toMatch(
      /<tr data-event="user.created"><td><code>user.created<\/code><\/td><td>mailer, audit<\/td><\/tr>/,
    );
  });

  it('pauses and resumes a queue with the CSRF token, and refuses without it', async () => {
    const { html, token, cookie } = await page();
    expect(html).toContain('data-action="pause"');
    const refused = await post('/_framework/queues/mailer/pause', {}, { cookie, accept: 'application/json' });
    expect(refused?.status).toBe(403);
    expect(await runtime.isPaused('mailer')).toBe(false);

    const paused = await post('/_framework/queues/mailer/pause', { csrfToken: token }, { cookie });
    expect(paused?.status).toBe(303);
    expect(paused!.headers.get('location')).toBe('/_framework/?paused=mailer');
    expect(await runtime.isPaused('mailer')).toBe(true);
    const after = await page('/_framework/?paused=mailer');
    expect(after.html).toContain('Paused the queue of mailer.');
    expect(after.html).toContain('data-paused');
    expect(after.html).toContain('data-action="resume"');

    const resumed = await post(
      '/_framework/queues/mailer/resume',
      { csrfToken: token },
      { cookie, accept: 'application/json' },
    );
    expect(await resumed!.json()).toEqual({ trigger: 'mailer', paused: false });
    expect(await runtime.isPaused('mailer')).toBe(false);

    const notQueue = await post(
      '/_framework/queues/audit/pause',
      { csrfToken: token },
      { cookie, accept: 'application/json' },
    );
    expect(((await notQueue!.json()) as { error: { code: string } }).error.code).toBe('NOT_A_QUEUE_TRIGGER');
  });
});
