import { messageOf, runAttempt } from './runtime/attempt.js';
import type { RuntimeCore } from './runtime/core.js';
import { parseTraceparent } from './trace.js';
import { DEFAULT_WEBHOOK_BODY_LIMIT, readBodyWithin } from './body-limit.js';
import { claimDelivery } from './replay/claim.js';
import type { TailLog, WebhookEvent, WebhookSource } from './types.js';

/**
 * Serves a webhook request if its path belongs to a webhook trigger.
 *
 * - no trigger for the path → `null` (let the app handle it);
 * - path known, method not → 405 with `Allow`;
 * - body over the source's `maxBodySize` (default 1 MiB) or `limits.maxWebhookPayloadBytes` → 413,
 *   declared or streamed (reading stops at the limit, see `readBodyWithin`);
 * - a body stream that fails (client gone) → 400 `WEBHOOK_BODY_UNREADABLE`;
 * - verifier rejects (or throws) → 401 `{error: {code: 'WEBHOOK_VERIFICATION_FAILED'}}`;
 * - verified delivery id already handled within its window → 200 `{ok: true, duplicate: true}`, handler not run;
 * - the same delivery id being handled by another request → waits for it (≤ 25 s), then as above; 409
 *   `WEBHOOK_DELIVERY_IN_PROGRESS` with `Retry-After` if it is still running;
 * - replay store unreachable → 503 `WEBHOOK_REPLAY_STORE_UNAVAILABLE` with `Retry-After`;
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
    return answer(
      405,
      { error: { code: 'METHOD_NOT_ALLOWED', message: `${method} is not allowed` } },
      { allow: [...routes.keys()].join(', ') },
    );
  }

  const source = trigger.definition.source as WebhookSource;
  const limit = Math.min(source.maxBodySize ?? DEFAULT_WEBHOOK_BODY_LIMIT, core.limits.maxWebhookPayloadBytes);
  const read = await readBodyWithin(request, limit);
  if (read.status === 'too-large') {
    return answer(413, { error: { code: 'PAYLOAD_TOO_LARGE', message: `Body exceeds ${limit} bytes` } });
  }
  if (read.status === 'unreadable') {
    return answer(400, { error: { code: 'WEBHOOK_BODY_UNREADABLE', message: 'The request body could not be read' } });
  }
  const raw = read.body;
  if (source.verifier) {
    let failure: string | undefined;
    try {
      const result = await source.verifier(copyRequest(request, raw), raw);
      if (!result.valid) failure = result.error ?? 'invalid signature';
    } catch (error) {
      failure = `verifier threw: ${messageOf(error)}`;
    }
    if (failure !== undefined) {
      core.logger.log({
        level: 'warn',
        message: `webhook ${url.pathname} rejected: ${failure}`,
        trigger: trigger.name,
      });
      return answer(401, {
        error: { code: 'WEBHOOK_VERIFICATION_FAILED', message: 'Webhook signature verification failed' },
      });
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
  const replay = source.verifier?.replay;
  const claim = replay ? await claimDelivery(core, trigger, replay, request) : undefined;
  if (claim === 'unavailable') {
    return answer(
      503,
      { error: { code: 'WEBHOOK_REPLAY_STORE_UNAVAILABLE', message: 'Try again later' } },
      { 'retry-after': '30' },
    );
  }
  if (claim === 'in-progress') {
    return answer(
      409,
      { error: { code: 'WEBHOOK_DELIVERY_IN_PROGRESS', message: 'This delivery is being handled; try again later' } },
      { 'retry-after': '10' },
    );
  }
  if (claim === 'done') {
    core.logger.log({
      level: 'info',
      message: `webhook ${url.pathname}: delivery already handled; not run again`,
      trigger: trigger.name,
    });
    return answer(200, { ok: true, duplicate: true });
  }
  const result = await runAttempt(core, trigger, event, { attempt: 1, parent, request: { method, url: request.url } });
  await claim?.settle(result.ok);
  const trace = result.position.traceId;
  if (result.ok) return json(200, { ok: true, traceId: trace }, { 'x-trace-id': trace });
  const code = (result.error as { code?: unknown } | undefined)?.code;
  return json(
    500,
    {
      error: {
        code: typeof code === 'string' ? code : 'TRIGGER_FAILED',
        message: 'The webhook handler failed',
        traceId: trace,
      },
    },
    { 'x-trace-id': trace },
  );
}

/** Parses the body by content type: JSON (`application/json`, `+json`), form, `text/*`; anything else stays bytes. */
export function parsePayload(
  raw: Uint8Array,
  contentType: string | null,
): { ok: true; payload: unknown } | { ok: false } {
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
      payload[key] =
        existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
    }
    return { ok: true, payload };
  }
  if (type.startsWith('text/')) return { ok: true, payload: text() };
  return { ok: true, payload: raw };
}

function copyRequest(request: Request, raw: Uint8Array<ArrayBuffer>): Request {
  const hasBody = raw.byteLength > 0 && request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    ...(hasBody ? { body: raw } : {}),
  });
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
