import type { ConnectionOptions } from 'bullmq';

/** What `bullmqEngine({connection})` accepts. */
export type BullmqConnection = string | ConnectionOptions;

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
  if (typeof connection !== 'string') return { connection, close: async () => {} };
  let redis: typeof import('redis');
  try {
    redis = await import('redis');
  } catch (error) {
    throw new Error(
      `bullmqEngine: a connection URL needs the 'redis' package (npm install redis), or pass a connected Redis client as \`connection\``,
      { cause: error },
    );
  }
  const client = redis.createClient({ url: connection });
  client.on('error', () => {
    // Reconnection is automatic; BullMQ reports failed commands itself.
  });
  await client.connect();
  return {
    connection: client as unknown as ConnectionOptions,
    close: async () => {
      if (client.isOpen) await client.quit().catch(() => client.destroy());
    },
  };
}
