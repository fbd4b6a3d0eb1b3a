/**
 * The dashboard's POST routes: replay and discard of a failed or
 * dead-lettered message, pause and resume of a queue trigger's queue,
 * CSRF-checked, answering 303 back to the triggers page with a notice (or
 * JSON for `Accept: application/json`).
 * @module
 */
import type { CsrfGuard } from './csrf.js';
import { readFormBody } from '@framework/auth';
import type { DashboardRuntime } from './dashboard.js';
import { refusal } from './responses.js';

/** What the POST routes use. */
export interface ActionDeps {
  runtime: DashboardRuntime | undefined;
  csrf: CsrfGuard;
  base: string;
}

const MAX_FORM_BYTES = 8 * 1024;
const ROUTE = /^\/queues\/([^/]+)\/(replay|discard|pause|resume)$/;

/** Answers a POST under the base path; null for an unknown path. */
export async function handlePost(request: Request, path: string, deps: ActionDeps): Promise<Response | null> {
  const match = ROUTE.exec(path);
  if (!match || !deps.runtime) return null;
  const trigger = decodeURIComponent(match[1]!);
  const verb = match[2] as 'replay' | 'discard' | 'pause' | 'resume';
  if (!(request.headers.get('content-type') ?? '').startsWith('application/x-www-form-urlencoded')) {
    return refusal(request, 415, 'UNSUPPORTED_MEDIA_TYPE', 'Expected a url-encoded form.');
  }
  let form: Record<string, string>;
  try {
    form = await readFormBody(request, MAX_FORM_BYTES);
  } catch (error) {
    const { status = 400, code = 'INVALID_REQUEST' } = error as { status?: number; code?: string };
    return refusal(request, status, code, 'The form could not be read.');
  }
  const csrfError = await deps.csrf.check(request, form.csrfToken);
  if (csrfError)
    return refusal(
      request,
      403,
      csrfError,
      'The form is stale or came from another site; reload the page and try again.',
    );
  const id = form.id;
  const onQueue = verb === 'pause' || verb === 'resume';
  if (!onQueue && (!id || id.length > 200)) return refusal(request, 400, 'INVALID_REQUEST', 'Expected a message `id`.');
  let ids: string[] = [];
  try {
    if (onQueue) await pauseOrResume(deps.runtime, verb, trigger);
    else ids = await deps.runtime[verb](trigger, { id: id! });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'UNKNOWN_TRIGGER') return refusal(request, 404, 'UNKNOWN_TRIGGER', `No trigger named ${trigger}.`);
    if (code === 'NOT_A_QUEUE_TRIGGER' || code === 'ENGINE_UNSUPPORTED')
      return refusal(request, 400, code, `Cannot ${verb} messages of ${trigger}.`);
    throw error;
  }
  if ((request.headers.get('accept') ?? '').includes('application/json')) {
    const answer = onQueue ? { trigger, paused: verb === 'pause' } : { ids };
    return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json; charset=utf-8' } });
  }
  const outcome = onQueue
    ? `${verb === 'pause' ? 'paused' : 'resumed'}=${encodeURIComponent(trigger)}`
    : `${ids.length === 0 ? 'missing' : verb === 'replay' ? 'replayed' : 'discarded'}=${encodeURIComponent(id!)}`;
  return new Response(null, { status: 303, headers: { location: `${deps.base}/?${outcome}` } });
}

/** Pauses or resumes the queue of queue trigger `trigger` (other triggers have none: `NOT_A_QUEUE_TRIGGER`). */
async function pauseOrResume(runtime: DashboardRuntime, verb: 'pause' | 'resume', trigger: string): Promise<void> {
  if (runtime.definitions[trigger] && runtime.definitions[trigger]!.source.type !== 'queue') {
    throw Object.assign(new Error(`${trigger} is not a queue trigger`), { code: 'NOT_A_QUEUE_TRIGGER' });
  }
  await runtime[verb](trigger);
}
