/**
 * The dashboard's POST routes: replay and discard of a failed or
 * dead-lettered message, CSRF-checked, answering 303 back to the triggers
 * page with a notice (or JSON for `Accept: application/json`).
 * @module
 */
import type { CsrfGuard } from './csrf.js';
import type { DashboardRuntime } from './dashboard.js';
import { refusal } from './dashboard.js';

/** What the POST routes use. */
export interface ActionDeps {
  runtime: DashboardRuntime | undefined;
  csrf: CsrfGuard;
  base: string;
}

const MAX_FORM_BYTES = 8 * 1024;
const ROUTE = /^\/queues\/([^/]+)\/(replay|discard)$/;

/** Answers a POST under the base path; null for an unknown path. */
export async function handlePost(request: Request, path: string, deps: ActionDeps): Promise<Response | null> {
  const match = ROUTE.exec(path);
  if (!match || !deps.runtime) return null;
  const trigger = decodeURIComponent(match[1]!);
  const verb = match[2] as 'replay' | 'discard';
  const form = await readForm(request);
  if (!form) return refusal(request, 400, 'INVALID_REQUEST', 'Expected a url-encoded form of at most 8 KiB.');
  const csrfError = await deps.csrf.check(request, form.get('csrfToken'));
  if (csrfError) return refusal(request, 403, csrfError, 'The form is stale or came from another site; reload the page and try again.');
  const id = form.get('id');
  if (!id || id.length > 200) return refusal(request, 400, 'INVALID_REQUEST', 'Expected a message `id`.');
  let ids: string[];
  try {
    ids = await deps.runtime[verb](trigger, { id });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'UNKNOWN_TRIGGER') return refusal(request, 404, 'UNKNOWN_TRIGGER', `No trigger named ${trigger}.`);
    if (code === 'NOT_A_QUEUE_TRIGGER' || code === 'ENGINE_UNSUPPORTED') return refusal(request, 400, code, `Cannot ${verb} messages of ${trigger}.`);
    throw error;
  }
  const notice = ids.length === 0 ? `Message ${id} was not found (already replayed or discarded?).` : `${verb === 'replay' ? 'Replayed' : 'Discarded'} message ${id}.`;
  if ((request.headers.get('accept') ?? '').includes('application/json')) {
    return new Response(JSON.stringify({ ids }), { headers: { 'content-type': 'application/json; charset=utf-8' } });
  }
  const param = ids.length === 0 ? 'error' : 'notice';
  return new Response(null, { status: 303, headers: { location: `${deps.base}/?${param}=${encodeURIComponent(notice)}` } });
}

async function readForm(request: Request): Promise<URLSearchParams | null> {
  if (!(request.headers.get('content-type') ?? '').startsWith('application/x-www-form-urlencoded')) return null;
  const length = Number(request.headers.get('content-length') ?? 0);
  if (length > MAX_FORM_BYTES) return null;
  const text = await request.text();
  return text.length > MAX_FORM_BYTES ? null : new URLSearchParams(text);
}
