import type { ConnectionOptions } from 'bullmq';
import { TriggerError } from '../errors.js';
import { importPeer } from '../optional-peer.js';

/** How long `start()` waits for Redis before failing with `ENGINE_UNAVAILABLE`, in ms. */
export const CONNECT_TIMEOUT_MS = 5_000;

/**
 * What `bullmqEngine({connection})` accepts: a `redis://` URL, or anything BullMQ's `ConnectionOptions` takes
 * (ioredis options, or a connected ioredis / node-redis client). Typed as `object` so the kit's declarations need
 * no `bullmq` types in apps that do not use BullMQ; BullMQ checks it at `start()`.
 */
export type BullmqConnection = string | object;

/** A resolved connection and how to release what this module opened. */
export interface OpenedConnection {
  connection: ConnectionOptions;
  close(): Promise<void>;
}

/**
 * Turns a `redis://` URL into a connected node-redis client (the `redis`
 * package, loaded on demand) that BullMQ wraps; passes clients and option
 * objects through untouched (the caller keeps ownership of its clients).
 */
export async function openConnection(connection: BullmqConnection): Promise<OpenedConnection> {
  if (typeof connection !== 'string') return { connection: connection as ConnectionOptions, close: async () => {} };
  // Without `redis` installed, pass a connected client as `connection` instead of a URL.
  const redis = await importPeer('redis', () => import('redis'));
  const client = redis.createClient({ url: connection });
  client.on('error', () => {
    // Reconnection is automatic; BullMQ reports failed commands itself.
  });
  try {
    await withDeadline(client.connect(), CONNECT_TIMEOUT_MS, () => engineUnavailable(connection));
  } catch (error) {
    client.destroy();
    throw error;
  }
  return {
    connection: client as unknown as ConnectionOptions,
    close: async () => {
      if (client.isOpen) await client.quit().catch(() => client.destroy());
    },
  };
}

/** Where a connection points, for messages: `host:port` of a URL (never its credentials), else `the given connection`. */
export function describeConnection(connection: BullmqConnection): string {
  if (typeof connection !== 'string') return 'the given connection';
  try {
    const url = new URL(connection);
    return `${url.hostname}:${url.port || '6379'}`;
  } catch {
    return 'the connection URL';
  }
}

/**
 * The error of a Redis that does not answer: code `ENGINE_UNAVAILABLE`, retryable.
 * @example
 * ```ts
 * throw engineUnavailable('redis://127.0.0.1:6379');
 * ```
 */
export function engineUnavailable(connection: BullmqConnection, cause?: unknown): TriggerError {
  return new TriggerError(
    `bullmqEngine: Redis at ${describeConnection(connection)} did not answer within ${CONNECT_TIMEOUT_MS / 1000} s. Start Redis, or check the connection URL and the network.`,
    { code: 'ENGINE_UNAVAILABLE', retryable: true, ...(cause === undefined ? {} : { cause }) },
  );
}

/** `work`, or the error of `onTimeout()` when it has not settled after `ms` milliseconds. */
export function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
