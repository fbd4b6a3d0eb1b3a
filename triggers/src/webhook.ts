import { messageOf, runAttempt } from './runtime/attempt.js';
import type { RuntimeCore } from './runtime/core.js';
import type { RegisteredTrigger } from './runtime/registry.js';
import { parseTraceparent } from './trace.js';
import type { TailLog, WebhookEvent, WebhookSource } from './types.js';

/**
 * Serves a webhook request if its path belongs to a webhook trigger.
 *
 * - no trigger for the path → `null` (let the app handle it);
 * - path known, method not → 405 with `Allow`;
 * - body over `limits.maxWebhookPayloadBytes` → 413;
 * - verifier rejects (or throws) → 401 `{error: {code: 'WEBHOOK_VERIFICATION_FAILED'}}`;
 * - a JSON body that does not parse → 400 `{error: {code: 'WEBHOOK_INVALID_PAYLOAD'}}`;
 * - handler fails → 500 `{error: {code, message, traceId}}` without a stack, so the sender retries;
 * - handled → 200 `{ok: true, traceId}`.
 *
 * Every answer carries `x-trace-id`. The handler runs once per request: the
 * sender's redelivery is the retry.
 */
export async function handleWebhook(core: RuntimeCore, request: Request): Promise<Response | null> {
  const url = new URL(request.url);
  const routes = core.registry.webhookRoutes.get(url.pathname);
  if (!routes) return null;
  const started = performance.now();
  const parent = parseTraceparent(request.headers.get('traceparent'));
  const traceId = parent?.traceId;
  const method = request.method.toUpperCase();
  const trigger = routes.get(method);
  const answer = (status: number, body: unknown, extra: Record<string, string> = {}, trace = traceId) => {
    core.tail.record(requestLog(request, status, performance.now() - started, trigger?.name, trace));
    return json(status, body, { ...(trace ? { 'x-trace-id': trace } : {}), ...extra });
  };
  if (!trigger) {
    return answer(405, { error: { code: 'METHOD_NOT_ALLOWED', message: `${method} is not allowed` } }, { allow: [...routes.keys()].join(', ') });
  }

  const raw = await readBody(request, core.limits.maxWebhookPayloadBytes);
  if (raw === 'too-large') {
    return answer(413, { error: { code: 'PAYLOAD_TOO_LARGE', message: `Body exceeds ${core.limits.maxWebhookPayloadBytes} bytes` } });
  }
  const source = trigger.definition.source as WebhookSource;
  if (source.verifier) {
    let failure: string | undefined;
    try {
      const result = await source.verifier(copyRequest(request, raw), raw);
      if (!result.valid) failure = result.error ?? 'invalid signature';
    } catch (error) {
      failure = `verifier threw: ${messageOf(error)}`;
    }
    if (failure !== undefined) {
      core.logger.log({ level: 'warn', message: `webhook ${url.pathname} rejected: ${failure}`, trigger: trigger.name });
      return answer(401, { error: { code: 'WEBHOOK_VERIFICATION_FAILED', message: 'Webhook signature verification failed' } });
    }
  }
  const parsed = parsePayload(raw, request.headers.get('content-type'));
  if (!parsed.ok) {
    return answer(400, { error: { code: 'WEBHOOK_INVALID_PAYLOAD', message: 'The body is not valid JSON' } });
  }
  const event: WebhookEvent = {
    request: copyRequest(request, raw),
    payload: parsed.payload,
    headers: request.headers,
    verified: source.verifier !== undefined,
  };
  const result = await runAttempt(core, trigger, event, { attempt: 1, parent, request: { method, url: request.url } });
  const trace = result.position.traceId;
  if (result.ok) return json(200, { ok: true, traceId: trace }, { 'x-trace-id': trace });
  const code = (result.error as { code?: unknown } | undefined)?.code;
  return json(
    500,
    { error: { code: typeof code === 'string' ? code : 'TRIGGER_FAILED', message: 'The webhook handler failed', traceId: trace } },
    { 'x-trace-id': trace },
  );
}

/** Reads the whole body, or returns `'too-large'` as soon as it exceeds `limit` bytes. */
export async function readBody(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer> | 'too-large'> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) return 'too-large';
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      return 'too-large';
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** Parses the body by content type: JSON (`application/json`, `+json`), form, `text/*`; anything else stays bytes. */
export function parsePayload(raw: Uint8Array, contentType: string | null): { ok: true; payload: unknown } | { ok: false } {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const text = () => new TextDecoder().decode(raw);
  if (type === 'application/json' || type.endsWith('+json')) {
    if (raw.byteLength === 0) return { ok: true, payload: null };
    try {
      return { ok: true, payload: JSON.parse(text()) };
    } catch {
      return { ok: false };
    }
  }
  if (type === 'application/x-www-form-urlencoded') {
    const payload: Record<string, string | string[]> = {};
    for (const [key, value] of new URLSearchParams(text())) {
      const existing = payload[key];
      payload[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
    }
    return { ok: true, payload };
  }
  if (type.startsWith('text/')) return { ok: true, payload: text() };
  return { ok: true, payload: raw };
}

function copyRequest(request: Request, raw: Uint8Array<ArrayBuffer>): Request {
  const hasBody = raw.byteLength > 0 && request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(request.url, { method: request.method, headers: request.headers, ...(hasBody ? { body: raw } : {}) });
}

function json(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

function requestLog(request: Request, status: number, durationMs: number, trigger?: string, traceId?: string): TailLog {
  return {
    outcome: 'ok',
    status,
    method: request.method,
    url: request.url,
    ...(trigger ? { trigger } : {}),
    ...(traceId ? { traceId } : {}),
    logs: [],
    exceptions: [],
    timestamp: new Date(),
    durationMs,
  };
}
