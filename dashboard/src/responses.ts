/**
 * Error answers of the dashboard.
 * @module
 */
import { escapeHtml } from './html.js';

/** An error answer: JSON for API clients, a short HTML page for browsers. */
export function refusal(request: Request, status: number, code: string, message: string, signIn?: string): Response {
  const accept = request.headers.get('accept') ?? '';
  if (!accept.includes('text/html')) {
    return new Response(JSON.stringify({ error: { code, message } }), {
      status,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  }
  const link = signIn ? `<p><a href="${escapeHtml(signIn)}">Sign in</a></p>` : '';
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${status}</title></head><body style="font-family:system-ui,sans-serif;background:#f5f6f8;color:#1d2330"><main style="max-width:28rem;margin:4rem auto;background:#fff;border-radius:10px;padding:2rem"><h1>${status}</h1><p>${escapeHtml(message)}</p><p><code>${code}</code></p>${link}</main></body></html>`;
  return new Response(body, { status, headers: { 'content-type': 'text/html; charset=utf-8' } });
}
