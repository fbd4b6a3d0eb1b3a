import type { QueueInspection, RunRecord, TriggerDefinition } from '@framework/trigger';
import { html, page, preview, status, time, type Html, type PageContext } from '../html.js';
import type { Throughput } from '../history.js';
import { formatInZone, nextOccurrences } from '../schedule.js';

/** Everything the triggers page shows. */
export interface OverviewData {
  definitions: Readonly<Record<string, TriggerDefinition>>;
  /** Event names with subscribers (`config.events`). */
  events: ReadonlyArray<{ event: string; subscribers: string[] }>;
  queues: QueueInspection[];
  runs: RunRecord[];
  throughput: Throughput;
  csrfToken: string;
  now: Date;
}

/** The triggers page: chart, triggers, queues, dead letters and recent runs. */
export function overviewPage(context: PageContext, data: OverviewData): string {
  const content = html`<h1>Triggers</h1>
${chartSection(data.throughput)}
<section><h2>Triggers</h2><table><thead><tr><th>Name</th><th>Source</th><th>Schedule (next 5)</th><th>Config</th></tr></thead><tbody>
${Object.entries(data.definitions).map(([name, definition]) => triggerRow(context, name, definition, data.now))}
</tbody></table></section>
${eventsSection(data.events)}
${queuesSection(context, data.queues, data.csrfToken)}
${deadLettersSection(context, data.queues, data.csrfToken)}
${deliveredSection(data.queues)}
${runsSection(context, data.runs)}`;
  return page('Triggers', context, content, { chart: true });
}

function chartSection(throughput: Throughput): Html {
  const runs = throughput.runs.reduce((a, b) => a + b, 0);
  const errors = throughput.errors.reduce((a, b) => a + b, 0);
  const rate = runs === 0 ? 0 : Math.round((1000 * errors) / runs) / 10;
  return html`<section id="summary" data-refreshable><h2>Last hour</h2><div class="grid">
<div><div class="count" data-runs-hour>${runs}</div><div class="muted">runs</div></div>
<div><div class="count">${errors}</div><div class="muted">failed runs</div></div>
<div><div class="count">${rate} %</div><div class="muted">error rate</div></div></div>
<div id="chart" class="chart" aria-label="Runs and errors per minute over the last hour"><noscript>The per-minute chart needs JavaScript; the totals above do not.</noscript></div></section>`;
}

function triggerRow(context: PageContext, name: string, definition: TriggerDefinition, now: Date): Html {
  const { source, config } = definition;
  let schedule: Html | string = '';
  if (source.type === 'scheduled' && source.cron === undefined) {
    schedule = html`every <code>${String(source.every)}</code>`;
  } else if (source.type === 'scheduled' && source.cron !== undefined) {
    const timezone = source.timezone ?? 'UTC';
    const next = nextOccurrences(source.cron, timezone, 5, now);
    schedule = html`<code>${source.cron}</code> <span class="muted">${timezone}</span><ol class="next">${next.map(
      (date) => html`<li><time datetime="${date.toISOString()}">${formatInZone(date, timezone)}</time></li>`,
    )}</ol>`;
  }
  const shownConfig = {
    retries: config.retries,
    retryDelay: config.retryDelay,
    timeout: config.timeout,
    ...(config.concurrency === undefined ? {} : { concurrency: config.concurrency }),
    ...(config.rateLimit ? { rateLimit: config.rateLimit } : {}),
    ...(config.debounce ? { debounceMs: config.debounce.delayMs } : {}),
  };
  return html`<tr data-trigger="${name}"><td><a href="${context.base}/?trigger=${encodeURIComponent(name)}#runs-section">${name}</a></td><td>${source.type} <code>${describeSource(source)}</code></td><td>${schedule}</td><td><code>${preview(shownConfig)}</code></td></tr>`;
}

/** The source's identifying fields (never secrets: verifiers are shown as present). */
function describeSource(source: TriggerDefinition['source']): string {
  const { type: _type, ...rest } = source as unknown as Record<string, unknown>;
  const shown: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    if (key === 'verifier' || key === 'secret') shown[key] = value === undefined ? undefined : 'set';
    else if (typeof value !== 'function') shown[key] = value;
  }
  return preview(shown, 200);
}

const count = (value: number | null) => (value === null ? '–' : String(value));

/** Event names and the triggers each `emit(event)` fans out to, every subscriber a run of its own. */
function eventsSection(events: OverviewData['events']): Html | '' {
  if (events.length === 0) return '';
  return html`<section id="events"><h2>Events</h2><table><thead><tr><th>Event</th><th>Subscribers (one run each)</th></tr></thead><tbody>${events.map(
    (e) => html`<tr data-event="${e.event}"><td><code>${e.event}</code></td><td>${e.subscribers.join(', ')}</td></tr>`,
  )}</tbody></table></section>`;
}

/** A CSRF-protected POST button on a queue trigger's route (`replay`, `discard`, `pause`, `resume`). */
function queueAction(
  context: PageContext,
  csrfToken: string,
  trigger: string,
  verb: 'replay' | 'discard' | 'pause' | 'resume',
  label: string,
  fields: Record<string, string> = {},
  className = '',
): Html {
  return html`<form class="inline" method="post" action="${context.base}/queues/${encodeURIComponent(trigger)}/${verb}"><input type="hidden" name="csrfToken" value="${csrfToken}">${Object.entries(
    fields,
  ).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  )}<button type="submit" class="${className}" data-action="${verb}">${label}</button></form>`;
}

function queuesSection(context: PageContext, queues: QueueInspection[], csrfToken: string): Html {
  const state = (q: QueueInspection) =>
    q.paused === undefined
      ? '–'
      : q.paused
        ? html`<strong data-paused>paused</strong> ${queueAction(context, csrfToken, q.trigger, 'resume', 'Resume')}`
        : html`running ${queueAction(context, csrfToken, q.trigger, 'pause', 'Pause', {}, 'secondary')}`;
  return html`<section id="queues" data-refreshable><h2>Queues</h2>${
    queues.length === 0
      ? html`<p class="muted">No queue triggers.</p>`
      : html`<table><thead><tr><th>Queue</th><th>Consumer</th><th>State</th><th>Depth</th><th>In flight</th><th>Failed</th><th>Dead-lettered</th><th>Dead-letter queue</th></tr></thead><tbody>${queues.map(
          (q) =>
            html`<tr data-queue="${q.queue}"><td>${q.queue}</td><td>${q.trigger}</td><td>${state(q)}</td><td>${count(q.waiting)}</td><td>${count(q.inFlight)}</td><td>${q.failed}</td><td>${q.deadLettered}</td><td>${q.deadLetterQueue ?? '–'}</td></tr>`,
        )}</tbody></table>`
  }</section>`;
}

function deadLettersSection(context: PageContext, queues: QueueInspection[], csrfToken: string): Html {
  const messages = queues.flatMap((q) => q.messages.map((m) => ({ trigger: q.trigger, ...m })));
  const action = (trigger: string, verb: 'replay' | 'discard', id: string, label: string, className = '') =>
    queueAction(context, csrfToken, trigger, verb, label, { id }, className);
  return html`<section id="dead-letters" data-refreshable><h2>Dead letters</h2>${
    messages.length === 0
      ? html`<p class="muted" data-empty>No failed or dead-lettered messages.</p>`
      : html`<table><thead><tr><th>Queue</th><th>Message</th><th>Attempts</th><th>Failed at</th><th>Reason</th><th>Body</th><th></th></tr></thead><tbody>${messages.map(
          (m) =>
            html`<tr data-message="${m.id}"><td>${m.queue}</td><td><code>${m.id}</code></td><td>${m.attempts}</td><td>${time(m.failedAt)}</td><td>${m.reason}</td><td><code>${preview(m.body, 120)}</code></td><td>${action(m.trigger, 'replay', m.id, 'Replay')} ${action(m.trigger, 'discard', m.id, 'Discard', 'secondary')}</td></tr>`,
        )}</tbody></table>`
  }</section>`;
}

/**
 * Recently completed messages from the engine's own job data (BullMQ's completed set, `keepCompleted`): shared
 * by every process and kept across restarts. Absent for engines that keep none.
 */
function deliveredSection(queues: QueueInspection[]): Html | '' {
  if (!queues.some((q) => q.completed !== undefined)) return '';
  const messages = queues
    .flatMap((q) => q.completed ?? [])
    .sort((a, b) => b.completedAt.getTime() - a.completedAt.getTime())
    .slice(0, 50);
  return html`<section id="delivered" data-refreshable><h2>Recently delivered</h2><p class="muted">From the queue engine's own job data: every process, across restarts.</p>${
    messages.length === 0
      ? html`<p class="muted" data-empty>No completed messages kept (<code>bullmqEngine({ idempotencyTtl })</code> keeps them 24 h by default).</p>`
      : html`<table><thead><tr><th>Queue</th><th>Message</th><th>Attempts</th><th>Completed</th><th>Took</th><th>Trace id</th><th>Body</th><th>Result</th></tr></thead><tbody>${messages.map(
          (m) =>
            html`<tr data-delivered="${m.id}"><td>${m.queue}</td><td><code>${m.id}</code></td><td>${m.attempts}</td><td>${time(m.completedAt)}</td><td>${Math.round(m.durationMs)} ms</td><td><code>${m.traceId ?? '–'}</code></td><td><code>${preview(m.body, 120)}</code></td><td><code data-result>${m.result === undefined ? '–' : preview(m.result, 120)}</code></td></tr>`,
        )}</tbody></table>`
  }</section>`;
}

/** The recent runs table (its body `#runs` receives live rows). */
export function runsSection(context: PageContext, runs: RunRecord[]): Html {
  return html`<section id="runs-section"><h2>Recent runs</h2><table><thead><tr><th>Trigger</th><th>Status</th><th>Attempt</th><th>Duration</th><th>Started</th><th>Trace id</th><th>Error</th></tr></thead><tbody id="runs">${
    runs.length === 0
      ? html`<tr data-empty><td colspan="7" class="muted">No runs yet since the dashboard started.</td></tr>`
      : runs.map(
          (run) =>
            html`<tr data-run="${run.id}"><td><a href="${context.base}/runs/${encodeURIComponent(run.id)}">${run.trigger}</a></td><td>${status(run.status)}</td><td>${run.attempt}</td><td>${Math.round(run.durationMs)} ms</td><td>${time(run.startedAt)}</td><td><code>${run.traceId}</code></td><td>${run.error ?? ''}</td></tr>`,
        )
  }</tbody></table></section>`;
}
