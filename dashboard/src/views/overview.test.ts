/**
 * The triggers page's "Recently delivered" section: shown only for engines that keep completed messages
 * (BullMQ's job data), newest first across queues, with the message body escaped.
 */
import { describe, expect, it } from 'vitest';
import type { CompletedMessage, QueueInspection } from '@framework/trigger';
import { overviewPage } from './overview.js';

const context = { base: '/_framework', refresh: 0 };
const empty = { minutes: [], runs: [], errors: [] };
const queue = (name: string, completed?: CompletedMessage[]): QueueInspection => ({
  queue: name,
  trigger: `${name}-consumer`,
  waiting: 0,
  inFlight: 0,
  failed: 0,
  deadLettered: 0,
  messages: [],
  ...(completed ? { completed } : {}),
});
const delivered = (id: string, queueName: string, at: number, body: unknown): CompletedMessage => ({
  id,
  queue: queueName,
  body,
  timestamp: new Date(at - 100),
  attempts: 2,
  startedAt: new Date(at - 40),
  completedAt: new Date(at),
  durationMs: 40,
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
});
const render = (queues: QueueInspection[]) =>
  overviewPage(context, {
    definitions: {},
    events: [],
    queues,
    runs: [],
    throughput: empty,
    csrfToken: 't',
    now: new Date(0),
  });

describe('Recently delivered', () => {
  it('is absent when no engine keeps completed messages', () => {
    expect(render([queue('jobs')])).not.toContain('id="delivered"');
  });

  it('lists kept messages of every queue, newest first, escaped', () => {
    const page = render([
      queue('jobs', [delivered('7', 'jobs', 2_000, { name: '<script>' })]),
      queue('mail', [delivered('9', 'mail', 3_000, { to: 'a@example.com' })]),
    ]);
    const rows = [...page.matchAll(/data-delivered="(\d+)"/g)].map((m) => m[1]);
    expect(rows).toEqual(['9', '7']);
    expect(page).toContain('<td>40 ms</td>');
    expect(page).toContain('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(page).not.toContain('<script>');
  });

  it('says so when the engine keeps none yet', () => {
    expect(render([queue('jobs', [])])).toContain(
      'No completed messages kept (<code>bullmqEngine({ idempotencyTtl })</code>',
    );
  });

  it('shows a kept run’s result, escaped, and a dash without one', () => {
    const page = render([
      queue('jobs', [
        { ...delivered('7', 'jobs', 2_000, {}), result: { url: '<b>thumb.png</b>' } },
        delivered('8', 'jobs', 1_000, {}),
      ]),
    ]);
    const results = [...page.matchAll(/<code data-result>([^<]*)<\/code>/g)].map((m) => m[1]);
    expect(results).toEqual(['{&quot;url&quot;:&quot;&lt;b&gt;thumb.png&lt;/b&gt;&quot;}', '–']);
  });
});
