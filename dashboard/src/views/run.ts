import type { RunRecord, TriggerStep } from '@framework/trigger';
import { html, page, preview, status, time, type Html, type PageContext } from '../html.js';

/** Characters of a step's output (its JSON) shown before it is cut. */
const OUTPUT_PREVIEW = 200;

/**
 * One run: its fields, the durable steps of the run it belongs to (`steps`, read from the engine; `undefined`
 * when they cannot be read), and its log lines. Every value is HTML-escaped; step outputs are cut to
 * 200 characters of JSON.
 */
export function runPage(context: PageContext, run: RunRecord, steps?: TriggerStep[]): string {
  const content = html`<h1>Run of ${run.trigger}</h1><section><table><tbody>
<tr><th>Status</th><td>${status(run.status)}</td></tr>
<tr><th>Source</th><td>${run.source}</td></tr>
<tr><th>Attempt</th><td>${run.attempt}</td></tr>
<tr><th>Started</th><td>${time(run.startedAt)}</td></tr>
<tr><th>Duration</th><td>${Math.round(run.durationMs)} ms</td></tr>
<tr><th>Trace id</th><td><code>${run.traceId}</code></td></tr>
${run.error === undefined ? '' : html`<tr><th>Error</th><td>${run.error}</td></tr>`}
</tbody></table></section>
${stepsSection(steps)}
<section><h2>Log lines</h2>${
    run.logs.length === 0
      ? html`<p class="muted">This attempt wrote no log lines.</p>`
      : html`<table><thead><tr><th>Time</th><th>Level</th><th>Message</th><th>Data</th></tr></thead><tbody id="logs">${run.logs.map(
          (entry) =>
            html`<tr><td>${time(entry.timestamp)}</td><td>${entry.level}</td><td><pre>${entry.message}</pre></td><td>${entry.data ? html`<code>${preview(entry.data, 200)}</code>` : ''}</td></tr>`,
        )}</tbody></table>`
  }</section><p><a href="${context.base}/">← all triggers</a></p>`;
  return page(`Run of ${run.trigger}`, context, content);
}

/** The steps table, in the order the steps were first called. */
function stepsSection(steps: TriggerStep[] | undefined): Html | string {
  if (steps === undefined) return '';
  if (steps.length === 0)
    return html`<section><h2>Steps</h2><p class="muted">No durable steps are stored for this run (it used none, or they are no longer kept).</p></section>`;
  return html`<section><h2>Steps</h2><table><thead><tr><th>Step</th><th>Kind</th><th>Status</th><th>Started</th><th>Ended</th><th>Duration</th><th>Attempts</th><th>Output</th></tr></thead><tbody id="steps">${steps.map(
    (step) =>
      html`<tr data-step="${step.id}"><td><code>${step.id}</code></td><td>${step.kind ?? '–'}</td><td>${status(step.status)}</td><td>${at(step.startedAt)}</td><td>${at(step.endedAt)}</td><td>${step.durationMs === undefined ? '–' : `${Math.round(step.durationMs)} ms`}</td><td>${step.attempts}</td><td>${
        step.error !== undefined
          ? html`<code data-step-error>${cut(step.error)}</code>`
          : 'output' in step
            ? html`<code data-step-output>${preview(step.output, OUTPUT_PREVIEW)}</code>`
            : '–'
      }</td></tr>`,
  )}</tbody></table></section>`;
}

/** An epoch-ms time as ISO 8601 with milliseconds, UTC. */
function at(ms: number | undefined): string {
  return ms === undefined || !Number.isFinite(ms) ? '–' : new Date(ms).toISOString();
}

function cut(text: string): string {
  return text.length > OUTPUT_PREVIEW ? `${text.slice(0, OUTPUT_PREVIEW)}…` : text;
}
