import { describe, expect, it } from 'vitest';
import { AuthError } from '../errors.js';
import { MAX_DRAIN_BYTES, readFormBody } from './body.js';

/** A request whose body a "framework" keeps feeding in `chunks` chunks of `size` bytes; records cancels. */
function fedRequest(chunks: number, size: number, headers: Record<string, string> = {}) {
  const state = { cancelled: false, sent: 0, done: undefined as Promise<void> | undefined };
  let finish!: () => void;
  state.done = new Promise<void>((resolve) => (finish = resolve));
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.sent === chunks) {
        controller.close();
        finish();
        return;
      }
      state.sent++;
      controller.enqueue(new Uint8Array(size).fill(0x61));
    },
    cancel() {
      state.cancelled = true;
      finish();
    },
  });
  const request = new Request('http://localhost/auth/callback/credentials', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
    duplex: 'half',
  } as RequestInit);
  return { request, state };
}

async function refusal(promise: Promise<unknown>): Promise<AuthError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthError);
  return error as AuthError;
}

describe('readFormBody over the limit', () => {
  it('answers 413 for a chunked body and drains the rest instead of cancelling the stream', async () => {
    const { request, state } = fedRequest(40, 4096);
    const error = await refusal(readFormBody(request, 16 * 1024));
    expect(error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
    await state.done;
    expect(state.cancelled).toBe(false);
    expect(state.sent).toBe(40);
  });

  it('drains a body whose Content-Length is over the limit without reading it into memory', async () => {
    const { request, state } = fedRequest(10, 4096, { 'content-length': String(10 * 4096) });
    expect(await refusal(readFormBody(request, 1024))).toMatchObject({ status: 413 });
    await state.done;
    expect(state.cancelled).toBe(false);
    expect(state.sent).toBe(10);
  });

  it('cancels after draining MAX_DRAIN_BYTES, so an endless body cannot hold the reader forever', async () => {
    const size = 1024 * 1024;
    const { request, state } = fedRequest(Math.ceil(MAX_DRAIN_BYTES / size) + 8, size);
    expect(await refusal(readFormBody(request, 1024))).toMatchObject({ status: 413 });
    await state.done;
    expect(state.cancelled).toBe(true);
  });

  it('still reads a body within the limit', async () => {
    const request = new Request('http://localhost/x', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=a%40example.com&email=second&password=pw',
    });
    expect(await readFormBody(request, 1024)).toEqual({ email: 'a@example.com', password: 'pw' });
  });
});
