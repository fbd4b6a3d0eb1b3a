/**
 * The dev routes (`/dev/outbox` holds live magic links): only on in
 * development or with DEV_OUTBOX=1, only to a client on this machine, and
 * `npm start` binds to loopback by default.
 */
import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExampleApp, type ExampleApp } from './app.js';
import { devRoutesEnabled, isLoopbackAddress, isLoopbackHost } from './dev-only.js';
import { listenAddress } from './listen.js';
import { start, stop, type Running } from './test-server.js';

/** GET over a real socket to 127.0.0.1 with exactly these headers (fetch would not let us set Host). */
function get(port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers, agent: false }, (response) => {
        response.resume();
        resolve(response.statusCode!);
      })
      .on('error', reject);
  });
}

describe('dev routes on a real server', () => {
  let running: Running;
  beforeAll(async () => {
    running = await start({ dbPath: ':memory:' });
  });
  afterAll(() => stop(running));

  it('serve the outbox to a browser on this machine', async () => {
    const port = Number(new URL(running.base).port);
    expect(await get(port, '/dev/outbox', { host: `localhost:${port}` })).toBe(200);
    expect(await get(port, '/dev/outbox', { host: `127.0.0.1:${port}` })).toBe(200);
    expect(await get(port, '/dev/notes', { host: `[::1]:${port}` })).toBe(200);
  });

  it('hide every dev route behind a foreign Host (DNS rebinding) or a proxy', async () => {
    const port = Number(new URL(running.base).port);
    for (const path of ['/dev/outbox', '/dev/avatars', '/dev/notes']) {
      expect(await get(port, path, { host: 'attacker.example' }), path).toBe(404);
      expect(await get(port, path, { host: `localhost.attacker.example:${port}` }), path).toBe(404);
      expect(await get(port, path, { host: `localhost:${port}`, 'x-forwarded-for': '203.0.113.7' }), path).toBe(404);
      expect(await get(port, path, { host: `localhost:${port}`, forwarded: 'for=203.0.113.7' }), path).toBe(404);
      expect(await get(port, path, { host: `localhost:${port}`, 'x-real-ip': '203.0.113.7' }), path).toBe(404);
    }
  });
});

describe('dev routes by peer address', () => {
  let example: ExampleApp;
  beforeAll(async () => {
    example = await createExampleApp({ dbPath: ':memory:', mailLog: () => {} });
  });
  afterAll(() => example.close());

  /** What @hono/node-server passes as the app's env: the Node request with its socket. */
  const from = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } });
  const outbox = () => new Request('http://localhost:3000/dev/outbox', { headers: { host: 'localhost:3000' } });

  it('answers 404 to any client that is not on this machine, and to in-process calls without a socket', async () => {
    for (const address of ['203.0.113.7', '10.0.0.2', '192.168.1.20', '::ffff:10.0.0.2', '2001:db8::1', '0.0.0.0']) {
      expect((await example.app.fetch(outbox(), from(address))).status, address).toBe(404);
    }
    expect((await example.app.fetch(outbox())).status).toBe(404);
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      expect((await example.app.fetch(outbox(), from(address))).status, address).toBe(200);
    }
  });

  it('cap an avatar upload at 1 MB even when it is chunked (no Content-Length)', async () => {
    const chunked = (bytes: number) =>
      new Request('http://localhost:3000/dev/avatars/ada.png', {
        method: 'PUT',
        headers: { host: 'localhost:3000' },
        body: new ReadableStream<Uint8Array>({
          start(controller) {
            for (let sent = 0; sent < bytes; sent += 64 * 1024)
              controller.enqueue(new Uint8Array(Math.min(64 * 1024, bytes - sent)));
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
    const big = await example.app.fetch(chunked(1024 * 1024 + 1), from('127.0.0.1'));
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE' } });
    const small = await example.app.fetch(chunked(2048), from('127.0.0.1'));
    expect(small.status).toBe(200);
    expect(await small.json()).toMatchObject({ key: 'users/ada.png', size: 2048 });
  });

  it('are not mounted when turned off, even for loopback', async () => {
    const off = await createExampleApp({ dbPath: ':memory:', mailLog: () => {}, devOutbox: false });
    try {
      expect((await off.app.fetch(outbox(), from('127.0.0.1'))).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});

describe('dev route policy', () => {
  it('is on outside production, and in production only with DEV_OUTBOX=1', () => {
    expect(devRoutesEnabled(undefined, {})).toBe(true);
    expect(devRoutesEnabled(undefined, { NODE_ENV: 'development' })).toBe(true);
    expect(devRoutesEnabled(undefined, { NODE_ENV: 'production' })).toBe(false);
    expect(devRoutesEnabled(undefined, { NODE_ENV: 'production', DEV_OUTBOX: 'true' })).toBe(false);
    expect(devRoutesEnabled(undefined, { NODE_ENV: 'production', DEV_OUTBOX: '1' })).toBe(true);
    expect(devRoutesEnabled(false, { DEV_OUTBOX: '1' })).toBe(false);
  });

  it('counts exactly 127.0.0.0/8 and ::1 (plain or IPv4-mapped) as loopback', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        const loopback = ip.startsWith('127.');
        expect(isLoopbackAddress(ip)).toBe(loopback);
        expect(isLoopbackAddress(`::ffff:${ip}`)).toBe(loopback);
      }),
    );
    const canonical = (ip: string) => new URL(`http://[${ip}]/`).hostname;
    fc.assert(
      fc.property(fc.ipV6(), (ip) => {
        expect(isLoopbackAddress(ip)).toBe(canonical(ip) === '[::1]' || /^\[::ffff:7f/.test(canonical(ip)));
      }),
    );
    for (const ip of [
      '::1',
      '0:0:0:0:0:0:0:1',
      '0::1',
      '::0:1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::FFFF:127.1.2.3',
    ]) {
      expect(isLoopbackAddress(ip), ip).toBe(true);
    }
    for (const ip of ['::2', '::ffff:10.0.0.1', '::ffff:a00:1', '1::1', '::127.0.0.1', 'fe80::1'])
      expect(isLoopbackAddress(ip), ip).toBe(false);
    expect([undefined, '', '::', '127.0.0.256', '127.1', 'localhost'].map(isLoopbackAddress)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('counts only loopback names as a local Host', () => {
    expect(
      ['localhost', 'localhost:3000', 'app.localhost:3000', '127.0.0.1:3000', '[::1]:3000', 'LOCALHOST'].every(
        isLoopbackHost,
      ),
    ).toBe(true);
    expect(
      ['example.com', 'localhost.example.com', '127.0.0.1.nip.io', '10.0.0.1:3000', '', undefined].some(isLoopbackHost),
    ).toBe(false);
  });
});

describe('npm start', () => {
  it('listens on 127.0.0.1 unless HOST says otherwise', () => {
    expect(listenAddress({})).toEqual({ port: 3000, hostname: '127.0.0.1' });
    expect(listenAddress({ HOST: '', PORT: '8080' })).toEqual({ port: 8080, hostname: '127.0.0.1' });
    expect(listenAddress({ HOST: '0.0.0.0' })).toEqual({ port: 3000, hostname: '0.0.0.0' });
    expect(() => listenAddress({ PORT: 'eighty' })).toThrow('PORT');
  });
});
