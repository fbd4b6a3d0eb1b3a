import type { RunRecord } from '@framework/trigger';
import { html, page, preview, status, time, type PageContext } from '../html.js';

/** One run: its fields and log lines. */
export function runPage(context: PageContext, run: RunRecord): string {
  const content = html`<h1>Run of ${run.trigger}</h1><section><table><tbody>
<tr><th>Status</th><td>${status(run.status)}</td></tr>
<tr><th>Source</th><td>${run.source}</td></tr>
<tr><th>Attempt</th><td>${run.attempt}</td></tr>
<tr><th>Started</th><td>${time(run.startedAt)}</td></tr>
<tr><th>Duration</th><td>${Math.round(run.durationMs)} ms</td></tr>
<tr><th>Trace id</th><td><code>${run.traceId}</code></td></tr>
${run.error === undefined ? '' : html`<tr><th>Error</th><td>${run.error}</td></tr>`}
</tbody></table></section>
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
