/**
 * Reads a request body once, within a byte limit, into a flat string map (`readJsonBody`: any JSON value).
 * `readFormBody` is public (`@framework/auth`) so apps read their own forms
 * with the same limiter as the auth routes.
 * @module
 */
import { badRequest } from '../errors.js';

/** Default body limit for auth routes: 64 KiB. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/**
 * The most bytes {@link discardBody} reads past a refused body before it
 * gives up and cancels the stream: 1 MiB. Small on purpose: while one branch
 * of a teed body (the rate limiter reads `request.clone()`) drains, the other
 * branch queues what arrives, so the cap bounds that memory per request.
 */
export const MAX_DRAIN_BYTES = 1024 * 1024;

/**
 * Lets go of a body the kit refused, without cancelling it: reads the rest in
 * the background and drops the bytes, so the framework that feeds the stream
 * (Node bridges such as adapter-node or node-fetch-server) finishes the
 * request normally and the kept-alive connection can carry the next one.
 * Cancelling instead makes some bridges reset the connection or throw from
 * an event listener. Past `maxBytes` the stream is cancelled after all.
 * Never throws; the returned promise settles when the body is gone.
 */
export function discardBody(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxBytes = MAX_DRAIN_BYTES,
): Promise<void> {
  return (async () => {
    let drained = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      drained += value.byteLength;
      if (drained > maxBytes) {
        await reader.cancel();
        return;
      }
    }
  })().catch(() => {});
}

async function readLimited(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) {
    if (request.body && !request.body.locked) void discardBody(request.body.getReader());
    throw tooLarge(limit);
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      void discardBody(reader);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

function tooLarge(limit: number) {
  return badRequest(`Request body exceeds ${limit} bytes`, 'PAYLOAD_TOO_LARGE', 413);
}

/** The body's media type, lower-cased, without parameters ('' when absent). */
function mediaType(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

function isJson(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json');
}

async function readBytes(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  try {
    return await readLimited(request, limit);
  } catch (e) {
    if (e instanceof Error && 'code' in e) throw e;
    throw badRequest('The request body could not be read');
  }
}

function utf8(bytes: Uint8Array<ArrayBuffer>): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw badRequest('The request body is not valid UTF-8');
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest('The request body is not valid JSON');
  }
}

/**
 * Reads a JSON body (`application/json` or `*+json`), at most `limit` bytes, as any JSON value: objects, arrays
 * and nested values are kept as sent, for API routes whose payload is structured (`PluginRoute.body: 'json'`).
 * Same limit, streaming and drain behaviour as {@link readFormBody}.
 *
 * @param request the Web request; its body is consumed.
 * @param limit the largest body in bytes. Default {@link DEFAULT_MAX_BODY_BYTES} (64 KiB).
 * @returns the parsed value, typed `unknown`: the route checks its shape.
 * @throws AuthError `PAYLOAD_TOO_LARGE` (413), `UNSUPPORTED_MEDIA_TYPE` (415) for another content type,
 *   `INVALID_REQUEST` (400) for an empty, non-UTF-8 or malformed body.
 * @example
 * ```ts
 * const value = await readJsonBody(request);
 * if (!Array.isArray(value)) throw new Error('expected a list');
 * ```
 */
export async function readJsonBody(request: Request, limit = DEFAULT_MAX_BODY_BYTES): Promise<unknown> {
  const type = mediaType(request);
  if (!isJson(type)) {
    if (request.body && !request.body.locked) void discardBody(request.body.getReader());
    throw badRequest(`Unsupported content type "${type}"`, 'UNSUPPORTED_MEDIA_TYPE', 415);
  }
  const bytes = await readBytes(request, limit);
  if (bytes.byteLength === 0) throw badRequest('The request body must be JSON');
  return parseJson(utf8(bytes));
}

/**
 * Reads a JSON, urlencoded or multipart body, at most `limit` bytes, into
 * field → string (the first value of a repeated field wins; multipart files
 * are dropped). JSON values that are not strings, numbers or booleans are
 * refused, so `authorize` always gets strings. The body is streamed: a
 * chunked body is refused as soon as it passes the limit, whatever its
 * `Content-Length` says, and the rest is read and dropped in the background
 * (at most 1 MiB, then the stream is cancelled) so the connection stays
 * usable. The auth routes read their bodies with it.
 *
 * @param request the Web request; its body is consumed.
 * @param limit the largest body in bytes. Default {@link DEFAULT_MAX_BODY_BYTES} (64 KiB).
 * @throws AuthError `PAYLOAD_TOO_LARGE` (413), `INVALID_REQUEST` (400) for
 *   malformed bodies, `UNSUPPORTED_MEDIA_TYPE` (415).
 * @example
 * ```ts
 * try {
 *   const form = await readFormBody(request, 16 * 1024);
 *   await register(form.email, form.password);
 * } catch (e) {
 *   if (e instanceof AuthError) return new Response(e.message, { status: e.status });
 *   throw e;
 * }
 * ```
 */
export async function readFormBody(request: Request, limit = DEFAULT_MAX_BODY_BYTES): Promise<Record<string, string>> {
  const type = mediaType(request);
  const bytes = await readBytes(request, limit);
  if (bytes.byteLength === 0) return {};
  const text = () => utf8(bytes);
  if (isJson(type)) {
    const data = parseJson(text());
    if (data === null || typeof data !== 'object' || Array.isArray(data))
      throw badRequest('The JSON body must be an object');
    const out: Record<string, string> = Object.create(null);
    for (const [k, v] of Object.entries(data)) {
      if (typeof v === 'string') out[k] = v;
      else if (typeof v === 'boolean' || typeof v === 'number') out[k] = String(v);
      else if (v !== null && v !== undefined) throw badRequest(`Field "${k}" must be a string`);
    }
    return out;
  }
  if (type === 'application/x-www-form-urlencoded' || type === '') {
    const out: Record<string, string> = Object.create(null);
    for (const [k, v] of new URLSearchParams(text())) if (!(k in out)) out[k] = v;
    return out;
  }
  if (type === 'multipart/form-data') {
    let form: FormData;
    try {
      form = await new Response(bytes, {
        headers: { 'content-type': request.headers.get('content-type')! },
      }).formData();
    } catch {
      throw badRequest('The multipart body is malformed');
    }
    const out: Record<string, string> = Object.create(null);
    for (const [k, v] of form) if (typeof v === 'string' && !(k in out)) out[k] = v;
    return out;
  }
  throw badRequest(`Unsupported content type "${type}"`, 'UNSUPPORTED_MEDIA_TYPE', 415);
}
