/**
 * Webhook bodies over a real HTTP server (Hono's Node bridge on port 0): four
 * concurrent 100 MB chunked uploads leave the resident set flat, and a
 * refused body does not cost the client its keep-alive connection.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTrigger } from './define.js';
import { createTriggerRuntime } from './runtime/create.js';
import { peakRssGrowth } from './test-support/peak-rss.js';
import { customHmacVerifier } from './verifiers.js';

const MB = 1024 * 1024;
let server: ServerType;
let port: number;
let handled = 0;

beforeAll(async () => {
  const runtime = createTriggerRuntime({
    env: {},
    triggers: {
      hook: defineTrigger({
        source: {
          type: 'webhook',
          path: '/hook',
          verifier: customHmacVerifier({
            secret: 'memory-test',
            algorithm: 'sha256',
            header: 'x-signature',
            prefix: 'sha256=',
          }),
        },
        handle: () => void handled++,
      }),
      open: defineTrigger({
        source: { type: 'webhook', path: '/open', maxBodySize: 1024 },
        handle: () => void handled++,
      }),
    },
  });
  server = serve({
    fetch: async (request) => (await runtime.fetch(request)) ?? new Response(null, { status: 404 }),
    port: 0,
    hostname: '127.0.0.1',
  });
  if (!server.listening) await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  (server as http.Server).closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** How a test client behaves once the server has answered. */
type ClientMode =
  /** Stops sending and closes the socket, as a client that gives up would. */
  | 'give-up'
  /** Sends the whole body on a keep-alive agent, as it must to reuse the connection. */
  | 'finish'
  /** Keeps sending the whole body regardless; resolves when the server closes the socket or the body is sent. */
  | 'push';

interface UploadOptions {
  mode?: ClientMode;
  agent?: http.Agent;
  /** Declare this Content-Length instead of sending chunked. */
  contentLength?: number;
}

/** POSTs up to `size` bytes, writing one reused 64 KiB buffer with backpressure. */
function upload(
  path: string,
  size: number,
  options: UploadOptions = {},
): Promise<{ status: number; sent: number; reused: boolean }> {
  const mode = options.mode ?? 'give-up';
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: '127.0.0.1',
      port,
      path,
      method: 'POST',
      agent: options.agent ?? false,
      headers: {
        'content-type': 'application/octet-stream',
        'x-signature': 'sha256=00',
        ...(options.contentLength === undefined
          ? { 'transfer-encoding': 'chunked' }
          : { 'content-length': String(options.contentLength) }),
      },
    });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    let status = 0;
    let stop = false;
    const pump = () => {
      while (!stop && sent < size) {
        const part = size - sent < chunk.length ? chunk.subarray(0, size - sent) : chunk;
        sent += part.length;
        if (!request.write(part)) return void request.once('drain', pump);
      }
      if (!stop) request.end();
    };
    const done = () => resolve({ status, sent, reused: request.reusedSocket });
    request.on('response', (response) => {
      status = response.statusCode!;
      stop = mode === 'give-up';
      response.resume();
      response.on('end', () => {
        if (mode === 'give-up') request.destroy();
        if (mode !== 'push') done();
      });
    });
    if (mode === 'push') request.on('close', () => (status ? done() : reject(new Error('closed before an answer'))));
    request.on('error', (error) => {
      if (!status) reject(error);
    });
    pump();
  });
}

describe('webhook bodies on a real server', () => {
  it('keeps peak RSS far below the data sent (under 150 MB for 400 MB) under four concurrent 100 MB chunked uploads', async () => {
    expect((await upload('/hook', 10)).status).toBe(401); // warm up: modules loaded, server ready
    const { result: results, growthMb } = await peakRssGrowth(() =>
      Promise.all([1, 2, 3, 4].map(() => upload('/hook', 100 * MB))),
    );
    expect(growthMb).toBeLessThan(150);
    expect(results.map((r) => r.status)).toEqual([413, 413, 413, 413]);
    expect(results.every((r) => r.sent < 100 * MB)).toBe(true);
  });

  it('stays flat when the four clients keep sending after the 413 (the server drains a bounded amount, then closes)', async () => {
    const { result: results, growthMb } = await peakRssGrowth(() =>
      Promise.all([1, 2, 3, 4].map(() => upload('/hook', 100 * MB, { mode: 'push' }))),
    );
    expect(growthMb).toBeLessThan(150);
    expect(results.map((r) => r.status)).toEqual([413, 413, 413, 413]);
    expect(results.every((r) => r.sent < 100 * MB)).toBe(true); // the server closed the socket after a bounded drain
    expect(handled).toBe(0);
  });

  it('answers 413 to an oversized body and keeps the keep-alive connection usable', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const finish = { mode: 'finish', agent } as const;
      const refused = await upload('/open', 256 * 1024, finish);
      expect(refused).toMatchObject({ status: 413, sent: 256 * 1024 });
      expect(await upload('/open', 10, finish)).toEqual({ status: 200, sent: 10, reused: true });
      const declared = await upload('/open', 256 * 1024, { ...finish, contentLength: 256 * 1024 });
      expect(declared).toMatchObject({ status: 413, sent: 256 * 1024, reused: true });
      expect(await upload('/open', 10, finish)).toEqual({ status: 200, sent: 10, reused: true });
    } finally {
      agent.destroy();
    }
  });
});
