import type { AddressObject, ParsedMail } from 'mailparser';
import { readStreamWithin, type LimitedBody } from '../body-limit.js';
import { TriggerError } from '../errors.js';
import type { EmailAttachment, EmailEvent } from '../types.js';
import { normalizeAddress } from './match.js';
import { importPeer } from '../optional-peer.js';

/** What a raw message can be given as. */
export type RawEmail = Uint8Array | string | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** A parsed message, ready to become one event per recipient. */
export interface ParsedEmail {
  bytes: Uint8Array;
  from: string;
  /** Recipients named in To and Cc, lower-cased. */
  headerRecipients: string[];
  fields: Omit<EmailEvent, 'from' | 'to' | 'raw'>;
}

/** Default largest raw message read by {@link readRaw}: 25 MiB, like the SMTP ingress's `size`. */
export const DEFAULT_EMAIL_MAX_SIZE = 25 * 1024 * 1024;

/**
 * Reads the whole message, at most `maxSize` bytes, through the package's
 * streaming limiter (a stream is never cancelled, see `readStreamWithin`).
 *
 * @throws {TriggerError} code `EMAIL_TOO_LARGE` (not retryable) over `maxSize`; `EMAIL_MALFORMED` when the stream fails
 */
export async function readRaw(raw: RawEmail, maxSize = DEFAULT_EMAIL_MAX_SIZE): Promise<Uint8Array> {
  let read: LimitedBody;
  if (typeof raw === 'string' || raw instanceof Uint8Array) {
    const bytes = typeof raw === 'string' ? new TextEncoder().encode(raw) : raw;
    read =
      bytes.byteLength > maxSize
        ? { status: 'too-large', limit: maxSize }
        : { status: 'ok', body: bytes as Uint8Array<ArrayBuffer> };
  } else {
    const stream = raw instanceof ReadableStream ? raw : streamOfIterable(raw);
    read = await readStreamWithin(stream, maxSize);
  }
  if (read.status === 'too-large') {
    throw new TriggerError(`The message exceeds ${maxSize} bytes`, {
      code: 'EMAIL_TOO_LARGE',
      retryable: false,
      context: { maxSize },
    });
  }
  if (read.status === 'unreadable') throw malformed('the message stream failed');
  return read.body;
}

/** A pull stream over an async iterable (no `cancel`, so a refused message does not end the source). */
function streamOfIterable(iterable: AsyncIterable<Uint8Array | string>): ReadableStream<Uint8Array> {
  const iterator = iterable[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const step = await iterator.next();
      if (step.done) controller.close();
      else controller.enqueue(typeof step.value === 'string' ? new TextEncoder().encode(step.value) : step.value);
    },
  });
}

function malformed(reason: string): TriggerError {
  return new TriggerError(`Malformed email message: ${reason}`, { code: 'EMAIL_MALFORMED', retryable: false });
}

function addresses(value: AddressObject | AddressObject[] | undefined): string[] {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const out: string[] = [];
  const walk = (entries: AddressObject['value']) => {
    for (const entry of entries) {
      if (entry.address) out.push(normalizeAddress(entry.address));
      if (entry.group) walk(entry.group);
    }
  };
  for (const object of list) walk(object.value);
  return out;
}

/** Lower-cased header names to unfolded values; repeated headers are joined with `", "`. */
function headerMap(parsed: ParsedMail): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { key, line } of parsed.headerLines) {
    const name = key.toLowerCase();
    const decoded = parsed.headers.get(name);
    const rawValue = line
      .slice(line.indexOf(':') + 1)
      .replace(/\r?\n[ \t]+/g, ' ')
      .trim();
    const value = typeof decoded === 'string' && name !== 'received' ? decoded : rawValue;
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return headers;
}

/**
 * Parses an RFC 5322 message with mailparser. A message must have a header
 * section with a `From` address.
 *
 * @throws {TriggerError} code `EMAIL_MALFORMED` (not retryable) for an empty message, one without headers or
 * without a From address; `EMAIL_TOO_LARGE` over `maxSize` (default 25 MiB)
 */
export async function parseEmail(raw: RawEmail, maxSize?: number): Promise<ParsedEmail> {
  const bytes = await readRaw(raw, maxSize);
  if (bytes.length === 0) throw malformed('the message is empty');
  const { simpleParser } = await importPeer('mailparser', () => import('mailparser'));
  let parsed: ParsedMail;
  try {
    parsed = await simpleParser(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      skipImageLinks: true,
    });
  } catch (error) {
    throw malformed(error instanceof Error ? error.message : String(error));
  }
  if (parsed.headerLines.length === 0)
    throw malformed('no header section (expected "Name: value" lines, a blank line, then the body)');
  const from = addresses(parsed.from)[0];
  if (!from) throw malformed('no From address');
  const attachments: EmailAttachment[] = parsed.attachments.map((a) => ({
    filename: a.filename ?? '',
    contentType: a.contentType,
    size: a.content.length,
    content: new Uint8Array(a.content),
  }));
  return {
    bytes,
    from,
    headerRecipients: [...new Set([...addresses(parsed.to), ...addresses(parsed.cc)])],
    fields: {
      subject: parsed.subject ?? '',
      text: parsed.text ?? null,
      html: parsed.html === false ? null : (parsed.html ?? null),
      attachments,
      headers: headerMap(parsed),
    },
  };
}

/** A fresh stream over `bytes`. */
export function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.slice());
      controller.close();
    },
  });
}
