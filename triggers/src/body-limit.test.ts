import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { readBodyWithin } from './body-limit.js';

/** A streamed request whose body is `chunks`, counting what the reader pulled and whether it was cancelled. */
function streamed(chunks: Uint8Array[], headers: Record<string, string> = {}) {
  const seen = { pulled: 0, cancelled: false };
  let index = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (index === chunks.length) return controller.close();
        seen.pulled++;
        controller.enqueue(chunks[index++]!);
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request('http://localhost/hook', {
    method: 'POST',
    body,
    headers,
    duplex: 'half',
  } as RequestInit);
  return { request, seen };
}

describe('readBodyWithin', () => {
  it('returns the exact bytes of a body within the limit and refuses any larger one, for any chunking', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ minLength: 0, maxLength: 40 }), { maxLength: 12 }),
        fc.integer({ min: 0, max: 300 }),
        async (chunks, limit) => {
          const { request, seen } = streamed(chunks);
          const total = chunks.reduce((n, c) => n + c.byteLength, 0);
          const read = await readBodyWithin(request, limit);
          if (total <= limit) {
            expect(read).toEqual({ status: 'ok', body: new Uint8Array(Buffer.concat(chunks)) });
          } else {
            expect(read).toEqual({ status: 'too-large', limit });
          }
          expect(seen.cancelled).toBe(false);
        },
      ),
    );
  });

  it('refuses a declared Content-Length over the limit at once, then drains the body without keeping or cancelling it', async () => {
    const { request, seen } = streamed([new Uint8Array(5), new Uint8Array(5)], { 'content-length': '5000' });
    expect(await readBodyWithin(request, 100)).toEqual({ status: 'too-large', limit: 100 });
    await vi.waitFor(() => expect(request.body!.locked).toBe(false));
    expect(seen).toEqual({ pulled: 2, cancelled: false });
  });

  it('stops collecting at the limit and drains the rest in the background, never cancelling the stream', async () => {
    const { request, seen } = streamed([
      new Uint8Array(60),
      new Uint8Array(60),
      new Uint8Array(60),
      new Uint8Array(60),
    ]);
    expect((await readBodyWithin(request, 100)).status).toBe('too-large');
    await vi.waitFor(() => expect(request.body!.locked).toBe(false));
    expect(seen.pulled).toBe(4);
    expect(seen.cancelled).toBe(false);
  });

  it('gives up draining after its byte or time budget and releases the stream to the server', async () => {
    const endless = () => {
      const seen = { pulled: 0, cancelled: false };
      const body = new ReadableStream<Uint8Array>(
        {
          pull: (controller) =>
            new Promise((resolve) =>
              setTimeout(() => (seen.pulled++, controller.enqueue(new Uint8Array(50)), resolve()), 1),
            ),
          cancel: () => void (seen.cancelled = true),
        },
        { highWaterMark: 0 },
      );
      return {
        request: new Request('http://localhost/hook', { method: 'POST', body, duplex: 'half' } as RequestInit),
        seen,
      };
    };
    const byBytes = endless();
    expect((await readBodyWithin(byBytes.request, 100, { drainBytes: 500, drainMs: 60_000 })).status).toBe('too-large');
    await vi.waitFor(() => expect(byBytes.request.body!.locked).toBe(false));
    expect(byBytes.seen.pulled).toBeLessThanOrEqual(3 + 12);
    const byTime = endless();
    expect(
      (await readBodyWithin(byTime.request, 100, { drainBytes: Number.MAX_SAFE_INTEGER, drainMs: 50 })).status,
    ).toBe('too-large');
    await vi.waitFor(() => expect(byTime.request.body!.locked).toBe(false));
    expect(byBytes.seen.cancelled || byTime.seen.cancelled).toBe(false);
  });

  it('answers unreadable when the stream errors (client gone)', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(3));
        controller.error(new Error('socket hang up'));
      },
    });
    const request = new Request('http://localhost/hook', { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(await readBodyWithin(request, 100)).toEqual({ status: 'unreadable' });
  });
});
