import { defineTrigger, type TriggerContext } from '@framework/trigger';

/** The part of the example app's env this trigger uses (see src/inbound-mail.ts). */
interface NotesEnv {
  notes: { add(note: { from: string; subject: string; text: string }): unknown };
}

/** Mail to notes@example.test (SMTP on port 2525 in dev) becomes a note. */
export default defineTrigger({
  source: { type: 'email', address: 'notes@example.test' },
  config: { retries: 0, timeout: '10s' },
  handle: async (event, ctx: TriggerContext<NotesEnv>) => {
    const text = event.text ?? (event.html ? event.html.replace(/<[^>]*>/g, '') : '');
    const attachments = event.attachments.map((a) => `${a.filename || 'unnamed'} (${a.size} bytes)`);
    await ctx.env.notes.add({
      from: event.from,
      subject: event.subject || '(no subject)',
      text: attachments.length > 0 ? `${text.trim()}\n\nAttachments: ${attachments.join(', ')}` : text.trim(),
    });
  },
});
