/**
 * The dashboard's GET routes: the triggers page, a run's page, the Auth view,
 * the chart's data and the live tail of runs (Server-Sent Events).
 * @module
 */
import type { RunRecord, TriggerStep } from '@framework/trigger';
import type { AuthActivitySources } from './auth-activity.js';
import { auditFilterOf } from './auth-activity.js';
import type { CsrfGuard } from './csrf.js';
import type { DashboardRuntime } from './dashboard.js';
import type { RunHistory } from './history.js';
import type { PageContext } from './html.js';
import { authPage, type AuthViewData } from './views/auth.js';
import { overviewPage } from './views/overview.js';
import { runPage } from './views/run.js';

/** What the GET routes read. `streams` holds the enders of open live tails. */
export interface PageDeps {
  runtime: DashboardRuntime | undefined;
  history: RunHistory | undefined;
  authActivity: AuthActivitySources;
  streams: Set<() => void>;
  csrf: CsrfGuard;
}

/** The most live tails open at once per dashboard. */
const MAX_STREAMS = 32;
const HEARTBEAT_MS = 15_000;

const htmlResponse = (body: string, headers: HeadersInit = {}) =>
  new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8', ...headers } });
const jsonResponse = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });

/** Answers a GET under the base path (`path` is relative to it); null for an unknown path. */
export async function renderGet(
  request: Request,
  path: string,
  url: URL,
  context: PageContext,
  deps: PageDeps,
): Promise<Response | null> {
  if (path === '/') {
    const issued = await deps.csrf.issue(request);
    const trigger = url.searchParams.get('trigger') ?? undefined;
    const body = overviewPage(context, {
      definitions: deps.runtime?.definitions ?? {},
      events: deps.runtime?.events ?? [],
      queues: deps.runtime ? await deps.runtime.inspectQueues() : [],
      runs: (await deps.history?.list({ limit: 50, ...(trigger ? { trigger } : {}) })) ?? [],
      throughput: deps.history?.throughput() ?? { minutes: [], runs: [], errors: [] },
      csrfToken: issued.token,
      now: new Date(),
    });
    return htmlResponse(body, issued.setCookie ? { 'set-cookie': issued.setCookie } : {});
  }
  if (path.startsWith('/runs/')) {
    const run = await deps.history?.find(decodeURIComponent(path.slice('/runs/'.length)));
    return run ? htmlResponse(runPage(context, run, await stepsOf(deps.runtime, run))) : null;
  }
  if (path === '/auth') return htmlResponse(authPage(context, await authData(deps.authActivity, url.searchParams)));
  if (path === '/api/throughput')
    return jsonResponse(deps.history?.throughput() ?? { minutes: [], runs: [], errors: [] });
  if (path === '/api/runs')
    return jsonResponse({ runs: ((await deps.history?.list({ limit: 50 })) ?? []).map(summary) });
  if (path === '/events') return liveTail(request, deps);
  return null;
}

/**
 * The durable steps of the run an attempt belongs to, read from the runtime's engine (`runtime.getSteps`);
 * `undefined` when the attempt has no steps id, the runtime cannot read steps, or reading failed.
 */
async function stepsOf(runtime: DashboardRuntime | undefined, run: RunRecord): Promise<TriggerStep[] | undefined> {
  if (run.stepsId === undefined || !runtime?.getSteps) return undefined;
  try {
    return await runtime.getSteps(run.stepsId);
  } catch {
    return undefined;
  }
}

/** A run without its log lines, for JSON and the live tail. */
function summary(run: RunRecord) {
  const { logs: _logs, ...rest } = run;
  return rest;
}

/** Streams each new run as an SSE `run` event until the client leaves or the dashboard closes. */
function liveTail(request: Request, deps: PageDeps): Response {
  if (!deps.history) return jsonResponse({ error: { code: 'NOT_FOUND', message: 'No runtime to tail.' } }, 404);
  if (deps.streams.size >= MAX_STREAMS)
    return jsonResponse({ error: { code: 'RATE_LIMITED', message: 'Too many live tails are open.' } }, 429);
  const history = deps.history;
  const encoder = new TextEncoder();
  let end = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          end();
        }
      };
      const unsubscribe = history.subscribe((run) => send(`event: run\ndata: ${JSON.stringify(summary(run))}\n\n`));
      const heartbeat = setInterval(() => send(': keep-alive\n\n'), HEARTBEAT_MS);
      (heartbeat as { unref?: () => void }).unref?.();
      end = () => {
        unsubscribe();
        clearInterval(heartbeat);
        deps.streams.delete(end);
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      deps.streams.add(end);
      request.signal.addEventListener('abort', () => end(), { once: true });
      send(': connected\n\n');
    },
    cancel() {
      end();
    },
  });
  return new Response(stream, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    },
  });
}

/** Reads each configured Auth view source; a failing one is reported by name, never as a 500. */
async function authData(sources: AuthActivitySources, params: URLSearchParams): Promise<AuthViewData> {
  const filter = auditFilterOf(params);
  const failed: string[] = [];
  const read = async <T>(name: string, fn: (() => Promise<T>) | undefined): Promise<T | undefined> => {
    if (!fn) return undefined;
    try {
      return await fn();
    } catch {
      failed.push(name);
      return undefined;
    }
  };
  const auditLog = sources.auditLog;
  const signIns =
    sources.signIns ??
    (auditLog
      ? async ({ limit }: { limit: number }) =>
          (await auditLog({ limit: 200 })).filter((e) => e.action.startsWith('signin')).slice(0, limit)
      : undefined);
  const [activeSessions, recentSignIns, refusals, audit] = await Promise.all([
    read('activeSessions', sources.activeSessions),
    read('signIns', signIns && (() => signIns({ limit: 20 }))),
    read('rateLimitRefusals', sources.rateLimitRefusals && (() => sources.rateLimitRefusals!({ limit: 20 }))),
    read('auditLog', auditLog && (() => auditLog(filter))),
  ]);
  return { activeSessions, signIns: recentSignIns, refusals, audit, filter, failed };
}
