/**
 * The example's inbound mail: an SMTP listener (port 2525 in dev) feeding the
 * email triggers, and the SQLite table where the `inbound-note` trigger keeps
 * the notes it receives.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createSmtpIngress, type EmailRuntime, type SmtpIngress } from '@framework/trigger';

/** A note stored from an inbound mail. */
export interface InboundNote {
  id: number;
  from: string;
  subject: string;
  text: string;
  receivedAt: Date;
}

/** The notes table. */
export interface NoteStore {
  add(note: { from: string; subject: string; text: string }): void;
  /** Newest first, at most 100. */
  list(): InboundNote[];
  close(): void;
}

/** Opens (and creates) the `inbound_notes` table in the SQLite file `filename` (`':memory:'` for tests). */
export function createNoteStore(filename: string): NoteStore {
  if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
  const db = new Database(filename);
  db.exec(`CREATE TABLE IF NOT EXISTS inbound_notes (
    id INTEGER PRIMARY KEY AUTOINCREMENT, sender TEXT NOT NULL, subject TEXT NOT NULL, body TEXT NOT NULL, received_at INTEGER NOT NULL)`);
  const insert = db.prepare('INSERT INTO inbound_notes (sender, subject, body, received_at) VALUES (?, ?, ?, ?)');
  const select = db.prepare(
    'SELECT id, sender, subject, body, received_at FROM inbound_notes ORDER BY id DESC LIMIT 100',
  );
  return {
    add: (note) => void insert.run(note.from, note.subject, note.text, Date.now()),
    list: () =>
      (select.all() as Array<{ id: number; sender: string; subject: string; body: string; received_at: number }>).map(
        (r) => ({
          id: r.id,
          from: r.sender,
          subject: r.subject,
          text: r.body,
          receivedAt: new Date(r.received_at),
        }),
      ),
    close: () => db.close(),
  };
}

/**
 * Listens for SMTP on `host:port` (default 127.0.0.1:2525, or SMTP_INBOUND_PORT)
 * and hands each message to the runtime's email triggers. Mail to an address
 * no trigger takes is refused with 550.
 */
export function startInboundMail(
  runtime: EmailRuntime,
  options: { port?: number; host?: string } = {},
): Promise<SmtpIngress> {
  return createSmtpIngress(runtime, {
    port: options.port ?? Number(process.env.SMTP_INBOUND_PORT ?? 2525),
    host: options.host ?? '127.0.0.1',
    size: 10 * 1024 * 1024,
  });
}
