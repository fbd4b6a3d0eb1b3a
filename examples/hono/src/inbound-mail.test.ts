import { createTriggerRuntime, type SmtpIngress } from '@framework/trigger';
import nodemailer from 'nodemailer';
import { afterEach, describe, expect, it } from 'vitest';
import inboundNote from '../app/triggers/inbound-note.js';
import { createNoteStore, startInboundMail } from './inbound-mail.js';

describe('example inbound mail', () => {
  let ingress: SmtpIngress | undefined;
  afterEach(async () => {
    await ingress?.close();
  });

  it('stores a note for mail to notes@example.test and refuses other recipients', async () => {
    const notes = createNoteStore(':memory:');
    const runtime = createTriggerRuntime({ triggers: { 'inbound-note': inboundNote }, env: { notes } });
    ingress = await startInboundMail(runtime, { port: 0 });
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: ingress.port, ignoreTLS: true });
    await transport.sendMail({
      from: 'ada@example.com',
      to: 'Notes@Example.test',
      subject: 'Einkaufsliste ✓',
      text: 'Milch, Brot',
      attachments: [{ filename: 'list.txt', content: 'Milch\nBrot\n' }],
    });
    expect(notes.list()).toMatchObject([
      { from: 'ada@example.com', subject: 'Einkaufsliste ✓', text: 'Milch, Brot\n\nAttachments: list.txt (11 bytes)' },
    ]);
    await expect(
      transport.sendMail({ from: 'ada@example.com', to: 'someone@example.test', text: 'x' }),
    ).rejects.toMatchObject({
      responseCode: 550,
    });
    notes.close();
  });
});
