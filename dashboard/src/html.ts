/**
 * HTML helpers of the dashboard pages: escaping, one layout (the auth pages'
 * palette and cards, in `assets/dashboard.css`), and small formatters.
 * @module
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** A tagged template that escapes every interpolation except {@link Html} values and arrays of them. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new Html(out);
}

function render(value: unknown): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(value);
}

/** What every page needs from the request. */
export interface PageContext {
  base: string;
  /** Seconds between background refreshes of `data-refreshable` parts; 0 for none. */
  refresh: number;
  /** A link to bull-board, when mounted. */
  bullBoard?: string | undefined;
  /** A flash message from the query string (after a POST). */
  notice?: string | undefined;
  error?: string | undefined;
}

/** The page layout: header with navigation, flash messages, content. */
export function page(title: string, context: PageContext, content: Html, options: { chart?: boolean } = {}): string {
  const { base } = context;
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title} · framework dashboard</title>
<link rel="stylesheet" href="${base}/assets/dashboard.css">${options.chart ? html`<link rel="stylesheet" href="${base}/assets/uplot.css">` : ''}</head>
<body data-base="${base}" data-refresh="${context.refresh}"><header><strong>framework</strong><nav><a href="${base}/">Triggers</a><a href="${base}/auth">Auth</a>${
    context.bullBoard ? html`<a href="${context.bullBoard}">Queues (bull-board)</a>` : ''
  }</nav></header><main>${context.notice ? html`<p class="notice" role="status">${context.notice}</p>` : ''}${
    context.error ? html`<p class="error" role="alert">${context.error}</p>` : ''
  }${content}</main>${options.chart ? html`<script src="${base}/assets/uplot.js"></script>` : ''}<script src="${base}/assets/dashboard.js"></script></body></html>`}`;
}

/** A status pill. */
export function status(value: string): Html {
  return html`<span class="status ${value}">${value}</span>`;
}

/** ISO time without milliseconds, UTC. */
export function time(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Compact JSON of a value for display, functions shown as `ƒ`, cut at `max` characters. */
export function preview(value: unknown, max = 300): string {
  let text: string;
  try {
    text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'function' ? 'ƒ' : v)) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
