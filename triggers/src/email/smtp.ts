import type { AddressInfo } from 'node:net';
import type { SMTPServer, SMTPServerOptions } from 'smtp-server';
import { TriggerError } from '../errors.js';
import type { DispatchEmailOptions, EmailDispatchResult } from './dispatch.js';
import type { RawEmail } from './parse.js';

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
   * More smtp-server options (e.g. `key`/`cert` to offer STARTTLS, `onAuth`).
   * By default AUTH and STARTTLS are disabled and nothing is logged.
   */
  server?: Omit<SMTPServerOptions, 'onRcptTo' | 'onData' | 'size'>;
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
 * to `runtime.dispatchEmail` with the envelope's sender and recipients.
 *
 * Replies:
 * - `RCPT TO` a recipient no email trigger takes: **550** 5.1.1;
 * - a message larger than `size`: **552** 5.3.4;
 * - a malformed message (no header section, no From address): **550** 5.6.0, the connection stays usable;
 * - a handler failed or timed out: **451** 4.3.0, so the sending server retries later;
 * - handled: **250**.
 *
 * @throws {Error} when the port cannot be bound (e.g. `EADDRINUSE`)
 * @example
 * ```ts
 * const ingress = await createSmtpIngress(runtime, { port: 2525 });
 * // swaks --server 127.0.0.1:2525 --to support@example.test
 * await ingress.close();
 * ```
 */
export async function createSmtpIngress(runtime: EmailRuntime, options: SmtpIngressOptions = {}): Promise<SmtpIngress> {
  const { SMTPServer } = await import('smtp-server');
  const host = options.host ?? '127.0.0.1';
  const size = options.size ?? 25 * 1024 * 1024;
  const server: SMTPServer = new SMTPServer({
    name: options.name ?? 'framework-trigger',
    banner: 'framework trigger inbound mail',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    ...options.server,
    size,
    onRcptTo(address, _session, callback) {
      if (runtime.acceptsRecipient(address.address)) callback();
      else callback(reply(550, `5.1.1 <${address.address}>: no mailbox here`));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (error: Error) => callback(error));
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          callback(reply(552, `5.3.4 message exceeds the maximum size of ${size} bytes`));
          return;
        }
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined;
        runtime
          .dispatchEmail(Buffer.concat(chunks), {
            recipients: session.envelope.rcptTo.map((r) => r.address),
            ...(from ? { from } : {}),
          })
          .then(
            () => callback(),
            (error: unknown) => {
              if (error instanceof TriggerError && error.code === 'EMAIL_MALFORMED') callback(reply(550, `5.6.0 ${error.message}`));
              else if (error instanceof TriggerError && error.code === 'EMAIL_NO_MATCHING_TRIGGER') callback(reply(550, `5.1.1 ${error.message}`));
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
