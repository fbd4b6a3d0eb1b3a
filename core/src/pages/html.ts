/**
 * Minimal HTML helpers for the default pages: escaping and one layout.
 * @internal
 * @module
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const STYLE = `body{font-family:system-ui,sans-serif;background:#f5f6f8;color:#1d2330;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;border-radius:10px;box-shadow:0 2px 12px rgba(0,0,0,.08);padding:2rem;width:min(24rem,90vw)}
h1{font-size:1.3rem;margin:0 0 1rem}label{display:block;font-size:.9rem;margin:.75rem 0 .25rem}
input{width:100%;box-sizing:border-box;padding:.55rem;border:1px solid #c4c8d0;border-radius:6px;font-size:1rem}
button{margin-top:1rem;width:100%;padding:.6rem;border:0;border-radius:6px;background:#2d5bd7;color:#fff;font-size:1rem;cursor:pointer}
.error{background:#fdecec;color:#8a1c1c;border-radius:6px;padding:.6rem;margin-bottom:1rem}a{color:#2d5bd7}hr{border:0;border-top:1px solid #e3e5ea;margin:1.25rem 0}`;

const LANG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;

/**
 * Wraps page content in the shared layout. `title` is escaped here; the content must already be safe. `lang` (a
 * BCP 47 tag, default `en`: pass a translator's `t.lang`) becomes `<html lang>`, and the answer's
 * `Content-Language` header with `Vary: Accept-Language`.
 */
export function layout(title: string, content: string, lang = 'en'): string {
  return `<!doctype html><html lang="${LANG.test(lang) ? lang : 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${content}</main></body></html>`;
}

/** A hidden input. */
export function hidden(name: string, value: string): string {
  return `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;
}

const PAGE_LANG = /^<!doctype html><html lang="([A-Za-z0-9-]{1,64})">/;

/** The `lang` a {@link layout} page was rendered in; undefined for other HTML. */
export function layoutLang(html: string): string | undefined {
  return PAGE_LANG.exec(html)?.[1];
}
