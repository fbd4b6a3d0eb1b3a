/**
 * The SMTP ingress under load: a recipient cap, bounded handler concurrency,
 * and an oversized message that is discarded as it streams instead of kept.
 */
import { once } from 'node:events';
import net from 'node:net';
import nodemailer from 'nodemailer';
import { afterEach, describe, expect, it } from 'vitest';
import { defineTrigger } from '../define.js';
import { eventually } from '../engine/conformance.js';
import { createTriggerRuntime } from '../runtime/create.js';
import { createSmtpIngress, type SmtpIngress, type SmtpIngressOptions } from './smtp.js';

const quiet = { retries: 0, observability: { metrics: false, tracing: false } } as const;
const MB = 1024 * 1024;

/** A runtime whose one email trigger takes the domain `many.test` and records how many handlers ran at once. */
function countingRuntime(delayMs = 5) {
  const stats = { handled: 0, active: 0, peak: 0 };
  const runtime = createTriggerRuntime({
    env: {},
    triggers: {
      many: defineTrigger({
        source: { type: 'email', domain: 'many.test' },
        config: quiet,
        handle: async () => {
          stats.active++;
          stats.peak = Math.max(stats.peak, stats.active);
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          stats.active--;
          stats.handled++;
        },
      }),
    },
  });
  return { runtime, stats };
}

/** A minimal SMTP client on a raw socket: `command` sends a line and resolves with the full reply. */
async function rawSmtp(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let buffer = '';
  let waiting: ((reply: string) => void) | undefined;
  const take = () => {
    const match = /(?:^|\r\n)(\d{3}) [^\r\n]*\r\n/.exec(buffer);
    if (!match || !waiting) return;
    const end = match.index + match[0].length;
    const reply = buffer.slice(0, end);
    buffer = buffer.slice(end);
    const resolve = waiting;
    waiting = undefined;
    resolve(reply);
  };
  socket.on('data', (data) => {
    buffer += data.toString('latin1');
    take();
  });
  const reply = () =>
    new Promise<string>((resolve) => {
      waiting = resolve;
      take();
    });
  const write = async (data: string | Buffer) => {
    if (!socket.write(data)) await once(socket, 'drain');
  };
  await reply(); // greeting
  return {
    reply,
    write,
    async command(line: string) {
      const answer = reply();
      await write(`${line}\r\n`);
      return answer;
    },
    close: () => socket.destroy(),
  };
}

describe('SMTP ingress limits', () => {
  let ingress: SmtpIngress | undefined;
  afterEach(async () => {
    await ingress?.close();
    ingress = undefined;
  });

  async function listen(runtime: Parameters<typeof createSmtpIngress>[0], options: SmtpIngressOptions = {}) {
    ingress = await createSmtpIngress(runtime, { port: 0, host: '127.0.0.1', ...options });
    return ingress;
  }

  it('answers 452 4.5.3 past maxRecipients (default 100) and delivers to the accepted ones', async () => {
    const { runtime, stats } = countingRuntime(0);
    const { port } = await listen(runtime);
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
    const to = Array.from({ length: 101 }, (_, i) => `user${i}@many.test`);
    const info = await transport.sendMail({ from: 'a@sender.test', to, subject: 'bulk', text: 'hi' });
    expect(info.accepted).toHaveLength(100);
    expect(info.rejected).toEqual(['user100@many.test']);
    expect(info.rejectedErrors?.[0]).toMatchObject({ responseCode: 452 });
    expect(stats.handled).toBe(100);
  });

  it('takes a smaller maxRecipients and refuses bad options', async () => {
    const { runtime } = countingRuntime(0);
    const { port } = await listen(runtime, { maxRecipients: 2 });
    const smtp = await rawSmtp(port);
    await smtp.command('EHLO client.test');
    await smtp.command('MAIL FROM:<a@sender.test>');
    expect(await smtp.command('RCPT TO:<a@many.test>')).toMatch(/^250/);
    expect(await smtp.command('RCPT TO:<b@many.test>')).toMatch(/^250/);
    expect(await smtp.command('RCPT TO:<c@many.test>')).toMatch(/^452 4\.5\.3/);
    smtp.close();
    await expect(createSmtpIngress(runtime, { port: 0, maxRecipients: 0 })).rejects.toThrow(RangeError);
    await expect(createSmtpIngress(runtime, { port: 0, concurrency: 1.5 })).rejects.toThrow(RangeError);
  });

  it('runs at most `concurrency` handlers of one message at once (default 10)', async () => {
    const { runtime, stats } = countingRuntime();
    const { port } = await listen(runtime);
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
    await transport.sendMail({
      from: 'a@sender.test',
      to: Array.from({ length: 60 }, (_, i) => `u${i}@many.test`),
      subject: 's',
      text: 't',
    });
    expect(stats.handled).toBe(60);
    expect(stats.peak).toBeLessThanOrEqual(10);
    expect(stats.peak).toBeGreaterThan(1);

    const direct = countingRuntime();
    const raw = `From: b@sender.test\r\nTo: ${Array.from({ length: 30 }, (_, i) => `h${i}@many.test`).join(', ')}\r\nSubject: x\r\n\r\nhi\r\n`;
    await direct.runtime.dispatchEmail(raw, { concurrency: 3 });
    expect(direct.stats).toMatchObject({ handled: 30, peak: 3 });
  });

  it.each([
    [undefined, 10],
    [4, 4],
  ])(
    'maxConcurrentHandlers %s: 30 connections at once run at most %i handlers at once, and every message is handled',
    async (maxConcurrentHandlers, limit) => {
      const { runtime, stats } = countingRuntime(30);
      const { port } = await listen(runtime, maxConcurrentHandlers ? { maxConcurrentHandlers } : {});
      const transports = Array.from({ length: 30 }, () =>
        nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true }),
      );
      const sent = await Promise.all(
        transports.map((transport, i) =>
          transport.sendMail({ from: 'a@sender.test', to: `c${i}@many.test`, subject: `${i}`, text: 'hi' }),
        ),
      );
      expect(sent.every((info) => info.accepted.length === 1)).toBe(true);
      expect(stats.handled).toBe(30);
      expect(stats.peak).toBeLessThanOrEqual(limit);
      expect(stats.peak).toBeGreaterThan(1);
    },
  );

  it('a handler past timeout + gracePeriod keeps its slot of maxConcurrentHandlers until it really ends (451 meanwhile)', async () => {
    const stats = { active: 0, peak: 0, ended: 0 };
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        stuck: defineTrigger({
          source: { type: 'email', domain: 'many.test' },
          config: { ...quiet, timeout: '20ms', gracePeriod: '20ms' },
          // Ignores ctx.signal and runs 3× past its hard cap.
          handle: async () => {
            stats.active++;
            stats.peak = Math.max(stats.peak, stats.active);
            await new Promise((resolve) => setTimeout(resolve, 120));
            stats.active--;
            stats.ended++;
          },
        }),
      },
    });
    const { port } = await listen(runtime, { maxConcurrentHandlers: 2 });
    const sent = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        nodemailer
          .createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true })
          .sendMail({ from: 'a@sender.test', to: `s${i}@many.test`, subject: `${i}`, text: 'hi' }),
      ),
    );
    expect(sent.map((r) => r.status === 'rejected' && (r.reason as { responseCode?: number }).responseCode)).toEqual(
      Array(6).fill(451),
    );
    await eventually(() => expect(stats.ended).toBe(6), 5_000);
    expect(stats.peak).toBe(2);
  });

  it('greets a connection beyond maxClients with 421 and closes it; refuses bad limits', async () => {
    const { runtime } = countingRuntime(0);
    const { port } = await listen(runtime, { maxClients: 3 });
    const greeting = async () => {
      const socket = net.connect(port, '127.0.0.1');
      const [data] = (await once(socket, 'data')) as [Buffer];
      return { socket, text: data.toString('latin1') };
    };
    const open = [await greeting(), await greeting(), await greeting()];
    expect(open.map((c) => c.text.slice(0, 3))).toEqual(['220', '220', '220']);
    const refused = await greeting();
    expect(refused.text).toMatch(/^421 .*too many connected clients/i);
    await once(refused.socket, 'close');
    for (const c of open) c.socket.destroy();
    await expect(createSmtpIngress(runtime, { port: 0, maxClients: 0 })).rejects.toThrow(RangeError);
    await expect(createSmtpIngress(runtime, { port: 0, maxConcurrentHandlers: 2.5 })).rejects.toThrow(RangeError);
  });

  // What an oversized message may cost in memory is BoundedBody's promise (bounded-body.test.ts);
  // the resident set under load is a benchmark figure, not a test bound.
  it('discards an oversized message as it streams: 552 after 100 MB, no handler runs, and the session takes the next message', async () => {
    const { runtime, stats } = countingRuntime(0);
    const { port } = await listen(runtime, { size: MB });
    const smtp = await rawSmtp(port);
    await smtp.command('EHLO client.test');
    await smtp.command('MAIL FROM:<a@sender.test>');
    await smtp.command('RCPT TO:<big@many.test>');
    expect(await smtp.command('DATA')).toMatch(/^354/);
    const line = `${'x'.repeat(998)}\r\n`;
    const block = Buffer.from(line.repeat(64));
    try {
      const reply = smtp.reply();
      await smtp.write('From: a@sender.test\r\nSubject: big\r\n\r\n');
      for (let sent = 0; sent < 100 * MB; sent += block.length) await smtp.write(block);
      await smtp.write('.\r\n');
      expect(await reply).toMatch(/^552 5\.3\.4/);
      expect(stats.handled).toBe(0);
      await smtp.command('MAIL FROM:<a@sender.test>');
      await smtp.command('RCPT TO:<small@many.test>');
      expect(await smtp.command('DATA')).toMatch(/^354/);
      expect(await smtp.command('From: a@sender.test\r\nSubject: small\r\n\r\nhi\r\n.')).toMatch(/^250/);
      expect(stats.handled).toBe(1);
    } finally {
      smtp.close();
    }
  });

  it('refuses a raw message over maxSize in dispatchEmail, without cancelling a streamed one', async () => {
    const { runtime, stats } = countingRuntime(0);
    const header = 'From: b@sender.test\r\nTo: one@many.test\r\nSubject: x\r\n\r\n';
    await expect(runtime.dispatchEmail(header + 'x'.repeat(100), { maxSize: 64 })).rejects.toMatchObject({
      code: 'EMAIL_TOO_LARGE',
    });
    await expect(runtime.dispatchEmail(new TextEncoder().encode(header + 'x'.repeat(26 * MB)))).rejects.toMatchObject({
      code: 'EMAIL_TOO_LARGE',
    });
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(header));
        for (let i = 0; i < 10; i++) controller.enqueue(new Uint8Array(1000).fill(0x78));
        controller.close();
      },
      cancel: () => void (cancelled = true),
    });
    await expect(runtime.dispatchEmail(stream, { maxSize: 5000 })).rejects.toMatchObject({ code: 'EMAIL_TOO_LARGE' });
    expect(cancelled).toBe(false);
    expect(await runtime.dispatchEmail(header + 'small', { maxSize: 5000 })).toEqual({
      deliveries: [{ trigger: 'many', to: 'one@many.test' }],
    });
    async function* chunks(count: number) {
      yield new TextEncoder().encode(header);
      for (let i = 0; i < count; i++) yield new Uint8Array(1000).fill(0x78);
    }
    await expect(runtime.dispatchEmail(chunks(10), { maxSize: 5000 })).rejects.toMatchObject({
      code: 'EMAIL_TOO_LARGE',
    });
    await runtime.dispatchEmail(chunks(2), { maxSize: 5000 });
    expect(stats.handled).toBe(2);
  });
});
