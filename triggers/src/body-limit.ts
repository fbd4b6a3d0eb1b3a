/**
 * The trigger package's one body reader: every body the package reads
 * (webhooks, `verifyWebhook`, raw mail given to `dispatchEmail`) goes through
 * {@link readBodyWithin} / {@link readStreamWithin}.
 * @module
 */

/** Default largest webhook body: 1 MiB (1 048 576 bytes). */
export const DEFAULT_WEBHOOK_BODY_LIMIT = 1024 * 1024;

/** The spec's ceiling for a webhook body: 100 MB (104 857 600 bytes). */
export const MAX_WEBHOOK_BODY_LIMIT = 100 * 1024 * 1024;

/**
 * What {@link readBodyWithin} read:
 * - `ok`: the whole body;
 * - `too-large`: the declared `Content-Length` or the bytes streamed so far exceed the limit (answer 413);
 * - `unreadable`: the stream failed (client gone, aborted upload; answer 400).
 */
export type LimitedBody =
  { status: 'ok'; body: Uint8Array<ArrayBuffer> } | { status: 'too-large'; limit: number } | { status: 'unreadable' };

/** How much of a refused body {@link readBodyWithin} reads and discards so the connection can be reused. */
export interface DrainOptions {
  /** Most bytes read and thrown away after the limit. Default 64 MiB. */
  drainBytes?: number;
  /** Longest time spent doing so, in milliseconds. Default 2000. */
  drainMs?: number;
}

/**
 * Reads a request body into memory, keeping at most `limit` bytes.
 *
 * A declared `Content-Length` above the limit is refused before a byte is
 * kept. A streamed body (chunked, or lying about its length) is read chunk by
 * chunk and refused as soon as the running total passes the limit: what was
 * collected is dropped, so no more than `limit` plus one chunk is ever held.
 *
 * A refused stream is **never cancelled**: a framework bridge (Hono's Node
 * server, Express, React Router, SvelteKit) may still be feeding it, and
 * cancelling would destroy the connection or make the bridge throw
 * `ERR_INVALID_STATE`. Instead, while the caller answers 413, the rest is
 * read and discarded in the background (at most `drainBytes` or `drainMs`),
 * so a client that sends its whole body keeps its keep-alive connection;
 * then the reader lock is released and the bridge decides.
 *
 * @param limit largest accepted body in bytes (a non-negative integer)
 * @example
 * ```ts
 * const read = await readBodyWithin(request, 1024 * 1024);
 * if (read.status === 'too-large') return new Response(null, { status: 413 });
 * ```
 */
export async function readBodyWithin(request: Request, limit: number, drain: DrainOptions = {}): Promise<LimitedBody> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) {
    if (request.body && !request.body.locked) void discardRest(request.body.getReader(), ...budget(drain));
    return { status: 'too-large', limit };
  }
  if (!request.body) return { status: 'ok', body: new Uint8Array(0) };
  return readStreamWithin(request.body, limit, drain);
}

/**
 * The streaming half of {@link readBodyWithin}, for a body that is not a
 * `Request` (e.g. a raw email handed to `runtime.dispatchEmail`): the same
 * limit, the same refusal without cancelling, the same background drain.
 */
export async function readStreamWithin(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  drain: DrainOptions = {},
): Promise<LimitedBody> {
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  try {
    reader = stream.getReader();
  } catch {
    return { status: 'unreadable' };
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let step: ReadableStreamReadResult<Uint8Array>;
    try {
      step = await reader.read();
    } catch {
      release(reader);
      return { status: 'unreadable' };
    }
    if (step.done) break;
    const chunk = typeof step.value === 'string' ? new TextEncoder().encode(step.value) : step.value;
    total += chunk.byteLength;
    if (total > limit) {
      chunks.length = 0;
      void discardRest(reader, ...budget(drain));
      return { status: 'too-large', limit };
    }
    chunks.push(chunk);
  }
  release(reader);
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { status: 'ok', body };
}

function budget(drain: DrainOptions): [bytes: number, ms: number] {
  return [drain.drainBytes ?? 64 * 1024 * 1024, drain.drainMs ?? 2000];
}

/** Reads and drops what is left of a refused body, within a byte and time budget, then releases the lock. */
async function discardRest(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxBytes: number,
  maxMs: number,
): Promise<void> {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    release(reader);
  }, maxMs);
  (timer as { unref?: () => void }).unref?.();
  let discarded = 0;
  try {
    while (!timedOut && discarded <= maxBytes) {
      const step = await reader.read();
      if (step.done) break;
      discarded += step.value.byteLength;
    }
  } catch {
    // The client went away or the lock was released at the deadline: nothing left to do.
  } finally {
    clearTimeout(timer);
    release(reader);
  }
}

/** Lets go of the stream without cancelling it (see {@link readBodyWithin}). */
function release(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  try {
    reader.releaseLock();
  } catch {
    // Already released, or a read is pending on a runtime that refuses: either way we stop reading.
  }
}
