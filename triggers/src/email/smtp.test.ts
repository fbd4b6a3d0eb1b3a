import nodemailer from 'nodemailer';
import { afterEach, describe, expect, it } from 'vitest';
import { defineTrigger } from '../define.js';
import { createTriggerRuntime } from '../runtime/create.js';
import type { EmailEvent } from '../types.js';
import { emailSourceMatches } from './match.js';
import { createSmtpIngress, type SmtpIngress } from './smtp.js';

const quiet = { retries: 0, observability: { metrics: false, tracing: false } } as const;

describe('email recipient filters', () => {
  it('match address and domain without case, on an exact domain boundary', () => {
    expect(emailSourceMatches({ address: 'Support@Example.com' }, 'support@example.COM')).toBe(true);
    expect(emailSourceMatches({ address: 'support@example.com' }, 'sales@example.com')).toBe(false);
    expect(emailSourceMatches({ domain: 'example.com' }, 'Ada@EXAMPLE.com')).toBe(true);
    expect(emailSourceMatches({ domain: 'example.com' }, 'ada@notexample.com')).toBe(false);
    expect(emailSourceMatches({ domain: 'example.com' }, 'ada@mail.example.com')).toBe(false);
    expect(emailSourceMatches({ domain: 'example.com' }, 'ada@example.com.evil.test')).toBe(false);
    expect(emailSourceMatches({}, 'anyone@anywhere.test')).toBe(true);
  });
});

describe('createSmtpIngress', () => {
  let ingress: SmtpIngress | undefined;
  afterEach(async () => {
    await ingress?.close();
    ingress = undefined;
  });

  async function setup(handle: (event: EmailEvent) => void | Promise<void>, size?: number) {
    const events: EmailEvent[] = [];
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        support: defineTrigger({
          source: { type: 'email', address: 'support@example.test' },
          config: quiet,
          handle: async (event) => {
            events.push(event);
            await handle(event);
          },
        }),
        billing: defineTrigger({
          source: { type: 'email', domain: 'billing.test' },
          config: quiet,
          handle: (e) => void events.push(e),
        }),
      },
    });
    ingress = await createSmtpIngress(runtime, { port: 0, host: '127.0.0.1', ...(size ? { size } : {}) });
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: ingress.port,
      secure: false,
      ignoreTLS: true,
    });
    return { runtime, events, transport };
  }

  it('delivers multipart mail with attachments and a UTF-8 subject to the matching trigger', async () => {
    const { events, transport } = await setup(() => {});
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
    await transport.sendMail({
      from: '"Ada" <ada@sender.test>',
      to: 'SUPPORT@example.test',
      subject: 'Grüße — 発注 #42 ✓',
      text: 'Plain body',
      html: '<p>HTML body</p>',
      headers: { 'X-Ticket': 'T-1' },
      attachments: [
        { filename: 'note.txt', content: 'hello attachment', contentType: 'text/plain' },
        { filename: 'pixel.png', content: Buffer.from(png), contentType: 'image/png' },
      ],
    });
    expect(events).toHaveLength(1);
    const event = events[0]!;
    expect(event).toMatchObject({
      from: 'ada@sender.test',
      to: 'support@example.test',
      subject: 'Grüße — 発注 #42 ✓',
      html: '<p>HTML body</p>',
    });
    expect(event.text?.trim()).toBe('Plain body');
    expect(event.attachments.map((a) => [a.filename, a.contentType, a.size])).toEqual([
      ['note.txt', 'text/plain', 16],
      ['pixel.png', 'image/png', 8],
    ]);
    expect(event.attachments[1]!.content).toEqual(png);
    expect(event.headers['x-ticket']).toBe('T-1');
    expect(event.headers.subject).toBe('Grüße — 発注 #42 ✓');
    expect(Object.keys(event.headers).every((k) => k === k.toLowerCase())).toBe(true);
    const raw = await new Response(event.raw).text();
    expect(raw).toMatch(/^[\s\S]*Subject: =\?UTF-8\?/m);
    expect(raw).toContain('X-Ticket: T-1');
  });

  it('answers 550 at RCPT for a recipient no trigger takes, and delivers to a domain trigger', async () => {
    const { events, transport } = await setup(() => {});
    await expect(
      transport.sendMail({ from: 'a@sender.test', to: 'nobody@example.test', subject: 's', text: 't' }),
    ).rejects.toMatchObject({
      responseCode: 550,
    });
    await expect(
      transport.sendMail({ from: 'a@sender.test', to: 'x@notbilling.test', subject: 's', text: 't' }),
    ).rejects.toMatchObject({
      responseCode: 550,
    });
    await transport.sendMail({ from: 'a@sender.test', to: 'Invoices@Billing.test', subject: 'inv', text: 't' });
    expect(events.map((e) => e.to)).toEqual(['invoices@billing.test']);
  });

  it('answers 451 when the handler fails, so the sender retries', async () => {
    const { transport } = await setup(() => {
      throw new Error('database down');
    });
    await expect(
      transport.sendMail({ from: 'a@sender.test', to: 'support@example.test', subject: 's', text: 't' }),
    ).rejects.toMatchObject({
      responseCode: 451,
    });
  });

  it('answers 552 for an oversized message', async () => {
    const { events, transport } = await setup(() => {}, 1_000);
    await expect(
      transport.sendMail({
        from: 'a@sender.test',
        to: 'support@example.test',
        subject: 'big',
        text: 'x'.repeat(5_000),
      }),
    ).rejects.toMatchObject({ responseCode: 552 });
    expect(events).toEqual([]);
  });

  it('rejects a malformed message with a clear 550 and keeps serving', async () => {
    const { events, transport } = await setup(() => {});
    const error = await transport
      .sendMail({
        envelope: { from: 'a@sender.test', to: ['support@example.test'] },
        raw: 'this line is no header\r\n\r\nbody',
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ responseCode: 550, response: expect.stringContaining('Malformed email message') });
    await transport.sendMail({ from: 'a@sender.test', to: 'support@example.test', subject: 'after', text: 'ok' });
    expect(events.map((e) => e.subject)).toEqual(['after']);
  });
});

describe('runtime.dispatchEmail', () => {
  it('ingests a raw message for inbound-parse services and reports what it delivered', async () => {
    const seen: EmailEvent[] = [];
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        support: defineTrigger({
          source: { type: 'email', domain: 'example.test' },
          config: quiet,
          handle: (e) => void seen.push(e),
        }),
      },
    });
    const raw = 'From: Bob <bob@sender.test>\r\nTo: help@example.test, other@else.test\r\nSubject: Hi\r\n\r\nHello\r\n';
    expect(await runtime.dispatchEmail(raw)).toEqual({ deliveries: [{ trigger: 'support', to: 'help@example.test' }] });
    expect(seen[0]).toMatchObject({
      from: 'bob@sender.test',
      to: 'help@example.test',
      subject: 'Hi',
      html: null,
      attachments: [],
    });
    await expect(runtime.dispatchEmail('To: x@else.test\r\nFrom: b@s.test\r\n\r\nhi')).rejects.toMatchObject({
      code: 'EMAIL_NO_MATCHING_TRIGGER',
    });
    await expect(runtime.dispatchEmail('')).rejects.toMatchObject({ code: 'EMAIL_MALFORMED' });
  });
});
