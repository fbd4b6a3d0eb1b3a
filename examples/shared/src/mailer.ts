/**
 * The example's mail: every message is kept in a dev outbox (an SQLite table
 * shown at /dev/outbox) and, when SMTP_URL is set, also delivered through
 * nodemailer.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import nodemailer from 'nodemailer';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  from?: string;
}

export interface OutboxMail extends OutgoingMail {
  id: number;
  sentAt: Date;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  /** The outbox, newest first. */
  list(): Promise<OutboxMail[]>;
  close(): void;
}

export interface MailerOptions {
  /** SQLite file holding the outbox table (the app's database file is fine). */
  filename: string;
  /** `smtp://user:pass@host:port` for real delivery. */
  smtpUrl?: string;
  from?: string;
  log?: (line: string) => void;
}

export function createMailer(options: MailerOptions): Mailer {
  if (options.filename !== ':memory:') mkdirSync(dirname(options.filename), { recursive: true });
  const db = new Database(options.filename);
  db.pragma('journal_mode = WAL');
  db.exec(`CREATE TABLE IF NOT EXISTS dev_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT, recipient TEXT NOT NULL, sender TEXT NOT NULL,
    subject TEXT NOT NULL, body TEXT NOT NULL, sent_at INTEGER NOT NULL)`);
  const insert = db.prepare(
    'INSERT INTO dev_outbox (recipient, sender, subject, body, sent_at) VALUES (?, ?, ?, ?, ?)',
  );
  const select = db.prepare(
    'SELECT id, recipient, sender, subject, body, sent_at FROM dev_outbox ORDER BY id DESC LIMIT 200',
  );
  const transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null;
  const from = options.from ?? 'no-reply@example.test';
  const log = options.log ?? ((line: string) => console.info(line));
  return {
    async send(mail) {
      const sender = mail.from ?? from;
      insert.run(mail.to, sender, mail.subject, mail.text, Date.now());
      if (transport) await transport.sendMail({ from: sender, to: mail.to, subject: mail.subject, text: mail.text });
      log(`[mail] to ${mail.to}: ${mail.subject}${transport ? ' (sent by SMTP)' : ' (see /dev/outbox)'}`);
    },
    async list() {
      return (
        select.all() as {
          id: number;
          recipient: string;
          sender: string;
          subject: string;
          body: string;
          sent_at: number;
        }[]
      ).map((r) => ({
        id: r.id,
        to: r.recipient,
        from: r.sender,
        subject: r.subject,
        text: r.body,
        sentAt: new Date(r.sent_at),
      }));
    },
    close() {
      transport?.close();
      db.close();
    },
  };
}
