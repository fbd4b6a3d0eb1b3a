import {
  mockEmailEvent,
  mockQueueEvent,
  mockObjectStoreEvent,
  mockScheduledEvent,
  mockSqlDbEvent,
  mockTailEvent,
  mockWebhookEvent,
} from '@framework/trigger/testing';
import type { TriggerSource } from '@framework/trigger';
import { UsageError } from '../io.js';

type Json = Record<string, any>;

const date = (value: unknown): Date | undefined => (value === undefined ? undefined : new Date(value as string));
const defined = <T extends object>(record: T): T =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as T;

/**
 * Builds an event for `source` from the `--event` JSON with the mocks: missing
 * fields get valid defaults, ISO strings become Dates. For webhooks the JSON
 * is `{payload?, headers?, method?}`; for queues `{messages: [{body, ...}]}`.
 */
export function buildEvent(source: TriggerSource, input: unknown) {
  if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input))) {
    throw new UsageError('--event must be a JSON object');
  }
  const json = (input ?? {}) as Json;
  switch (source.type) {
    case 'scheduled':
      return mockScheduledEvent(defined({ cron: json.cron ?? source.cron, scheduledTime: date(json.scheduledTime) }));
    case 'queue':
      return mockQueueEvent({
        queue: json.queue ?? source.name,
        messages: ((json.messages as Json[] | undefined) ?? [{}]).map((m) =>
          defined({ ...m, timestamp: date(m.timestamp) }),
        ),
      });
    case 'webhook':
      return mockWebhookEvent(
        defined({ ...json, url: `http://localhost${source.path}`, method: json.method ?? source.methods?.[0] }),
      );
    case 'objectstore':
      return mockObjectStoreEvent(
        defined({
          ...json,
          bucket: json.bucket ?? source.bucket,
          object: json.object && defined({ ...json.object, uploadedAt: date(json.object.uploadedAt) }),
        }),
      );
    case 'email':
      return mockEmailEvent(json);
    case 'sqldb':
      return mockSqlDbEvent({ database: source.database, ...json });
    case 'tail':
      return mockTailEvent({
        worker: json.worker,
        logs: ((json.logs as Json[] | undefined) ?? [{}]).map((l) => defined({ ...l, timestamp: date(l.timestamp) })),
      });
  }
}
