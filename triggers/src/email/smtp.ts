import type { AddressInfo } from 'node:net';
import type { SMTPServer, SMTPServerOptions } from 'smtp-server';
import { TriggerError } from '../errors.js';
import { DEFAULT_EMAIL_CONCURRENCY, type DispatchEmailOptions, type EmailDispatchResult } from './dispatch.js';
import type { RawEmail } from './parse.js';
import { BoundedBody } from './bounded-body.js';
import { importPeer } from '../optional-peer.js';
import { Gate } from '../runtime/gate.js';

/** The part of a runtime the SMTP ingress uses. */
export interface EmailRuntime {
  /** Whether some email trigger takes mail for `address`. */
  acceptsRecipient(address: string): boolean;
  dispatchEmail(raw: RawEmail, options?: DispatchEmailOptions): Promise<EmailDispatchResult>;
}

/** Options of {@link createSmtpIngress}. */
export interface SmtpIngressOptions {
  /** TCP port; `0` picks a free one. Default 2525. */
  port?: number;
  /** Interface to listen on. Default `'127.0.0.1'`. */
  host?: string;
  /** Largest accepted message in bytes (announced as SMTP `SIZE`). Default 25 MB. */
  size?: number;
  /** Name announced in the greeting. Default `'framework-trigger'`. */
  name?: string;
  /**
   * Most `RCPT TO` per message; more get **452** 4.5.3 (RFC 5321 §4.5.3.1.10), so the sender sends the rest
   * later. Default 100.
   */
  maxRecipients?: number;
  /** Most handlers of one message running at once (one per recipient and matching trigger). Default 10. */
  concurrency?: number;
  /**
   * Most simultaneous SMTP connections (smtp-server's `maxClients`). A
   * connection beyond it is greeted with **421** ("too many connected
   * clients, try again in a moment") and closed; the sending server retries
   * later. Default 100.
   *
   * @example
   * ```ts
   * await createSmtpIngress(runtime, { maxClients: 50 });
   * ```
   */
  maxClients?: number;
  /**
   * Most email handlers running at once across all connections and messages
   * (a handler is one recipient × matching trigger). A message whose handlers
   * find the pool full waits for free slots before its final reply (the
   * client keeps waiting, as RFC 5321 §4.5.3.2.6 allows 10 minutes); the
   * waiting messages are bounded by `maxClients` (one message in DATA per
   * connection). Default 10.
   *
   * @example
   * ```ts
   * await createSmtpIngress(runtime, { maxClients: 50, maxConcurrentHandlers: 8, concurrency: 4 });
   * ```
   */
  maxConcurrentHandlers?: number;
  /**
   * More smtp-server options (its `SMTPServerOptions`, e.g. `key`/`cert` to offer STARTTLS, `onAuth`), except
   * `onRcptTo`, `onData`, `size` and `maxClients`, which the source sets. By default AUTH and STARTTLS are disabled and nothing
   * is logged. Typed loosely so the declarations need no `smtp-server` types where email is not used.
   */
  server?: Readonly<Record<string, unknown>>;
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`createSmtpIngress: ${name} must be a positive integer`);
  return value;
}

/** A listening SMTP ingress. */
export interface SmtpIngress {
  /** The bound port (useful with `port: 0`). */
  readonly port: number;
  readonly host: string;
  /** Stops accepting connections and closes open ones. */
  close(): Promise<void>;
}

/** An error whose SMTP reply code smtp-server sends. */
function reply(code: number, message: string): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode: code });
}

/**
 * Receives mail over SMTP (RFC 5321, with smtp-server) and hands each message
 * to `runtime.dispatchEmail` with the envelope's sender and recipients,
 * running at most `concurrency` handlers of a message at once and at most
 * `maxConcurrentHandlers` across all connections, with at most `maxClients`
 * connections open.
 *
 * Replies:
 * - a connection beyond `maxClients`: **421** in the greeting, then closed;
 * - `RCPT TO` a recipient no email trigger takes: **550** 5.1.1;
 * - more than `maxRecipients` recipients: **452** 4.5.3 for the extra ones;
 * - a message larger than `size`: **552** 5.3.4; once past `size` the rest
 *   of the data is read and discarded, never kept;
 * - a malformed message (no header section, no From address): **550** 5.6.0, the connection stays usable;
 * - a handler failed or timed out: **451** 4.3.0, so the sending server retries later;
 * - handled: **250**.
 *
 * @throws {Error} when the port cannot be bound (e.g. `EADDRINUSE`)
 * @throws {RangeError} when `maxRecipients`, `concurrency`, `maxClients` or `maxConcurrentHandlers` is not a positive integer
 * @example
 * ```ts
 * const ingress = await createSmtpIngress(runtime, { port: 2525 });
 * // swaks --server 127.0.0.1:2525 --to support@example.test
 * await ingress.close();
 * ```
 */
export async function createSmtpIngress(runtime: EmailRuntime, options: SmtpIngressOptions = {}): Promise<SmtpIngress> {
  const { SMTPServer } = await importPeer('smtp-server', () => import('smtp-server'));
  const host = options.host ?? '127.0.0.1';
  const size = options.size ?? 25 * 1024 * 1024;
  const maxRecipients = positiveInteger('maxRecipients', options.maxRecipients, 100);
  const concurrency = positiveInteger('concurrency', options.concurrency, DEFAULT_EMAIL_CONCURRENCY);
  const maxClients = positiveInteger('maxClients', options.maxClients, 100);
  const handlers = new Gate(positiveInteger('maxConcurrentHandlers', options.maxConcurrentHandlers, 10));
  const within = <T>(run: () => Promise<T>) => handlers.run(undefined, run);
  const server: SMTPServer = new SMTPServer({
    name: options.name ?? 'framework-trigger',
    banner: 'framework trigger inbound mail',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    ...(options.server as Omit<SMTPServerOptions, 'onRcptTo' | 'onData' | 'size' | 'maxClients'> | undefined),
    size,
    maxClients,
    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= maxRecipients)
        callback(reply(452, `4.5.3 too many recipients (at most ${maxRecipients})`));
      else if (runtime.acceptsRecipient(address.address)) callback();
      else callback(reply(550, `5.1.1 <${address.address}>: no mailbox here`));
    },
    onData(stream, session, callback) {
      const body = new BoundedBody(size);
      stream.on('data', (chunk: Buffer) => body.push(chunk));
      stream.on('error', (error: Error) => callback(error));
      stream.on('end', () => {
        if (stream.sizeExceeded || body.exceeded) {
          callback(reply(552, `5.3.4 message exceeds the maximum size of ${size} bytes`));
          return;
        }
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined;
        runtime
          .dispatchEmail(body.concat(), {
            recipients: session.envelope.rcptTo.map((r) => r.address),
            concurrency,
            within,
            maxSize: size,
            ...(from ? { from } : {}),
          })
          .then(
            () => callback(),
            (error: unknown) => {
              if (error instanceof TriggerError && error.code === 'EMAIL_MALFORMED')
                callback(reply(550, `5.6.0 ${error.message}`));
              else if (error instanceof TriggerError && error.code === 'EMAIL_TOO_LARGE')
                callback(reply(552, `5.3.4 ${error.message}`));
              else if (error instanceof TriggerError && error.code === 'EMAIL_NO_MATCHING_TRIGGER')
                callback(reply(550, `5.1.1 ${error.message}`));
              else callback(reply(451, '4.3.0 the message could not be processed; try again later'));
            },
          );
      });
    },
  });
  server.on('error', () => {
    // Connection-level errors (resets, timeouts) concern one client only.
  });
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.server.once('error', onError);
    server.listen(options.port ?? 2525, host, () => {
      server.server.off('error', onError);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    host,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
