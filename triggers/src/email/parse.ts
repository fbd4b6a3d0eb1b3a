import type { AddressObject, ParsedMail } from 'mailparser';
import { TriggerError } from '../errors.js';
import type { EmailAttachment, EmailEvent } from '../types.js';
import { normalizeAddress } from './match.js';

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

/** Reads the whole message. */
export async function readRaw(raw: RawEmail): Promise<Uint8Array> {
  if (typeof raw === 'string') return new TextEncoder().encode(raw);
  if (raw instanceof Uint8Array) return raw;
  const chunks: Uint8Array[] = [];
  const iterable: AsyncIterable<Uint8Array> =
    raw instanceof ReadableStream ? (raw as unknown as AsyncIterable<Uint8Array>) : raw;
  for await (const chunk of iterable) chunks.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk);
  return Buffer.concat(chunks);
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
    const rawValue = line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim();
    const value = typeof decoded === 'string' && name !== 'received' ? decoded : rawValue;
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return headers;
}

/**
 * Parses an RFC 5322 message with mailparser. A message must have a header
 * section with a `From` address.
 *
 * @throws {TriggerError} code `EMAIL_MALFORMED` (not retryable) for an empty message, one without headers or without a From address
 */
export async function parseEmail(raw: RawEmail): Promise<ParsedEmail> {
  const bytes = await readRaw(raw);
  if (bytes.length === 0) throw malformed('the message is empty');
  const { simpleParser } = await import('mailparser');
  let parsed: ParsedMail;
  try {
    parsed = await simpleParser(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { skipImageLinks: true });
  } catch (error) {
    throw malformed(error instanceof Error ? error.message : String(error));
  }
  if (parsed.headerLines.length === 0) throw malformed('no header section (expected "Name: value" lines, a blank line, then the body)');
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
