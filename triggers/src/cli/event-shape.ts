/**
 * `framework triggers test --event` (in `@framework/cli`): the JSON must fit the trigger's source, so a queue trigger never runs on a
 * made-up empty message because its `messages` were left out (or a webhook's `{payload}` was sent to it).
 * The checks reuse the field validators of trigger definitions (`validate/fields.ts`).
 * @module
 * @internal
 */
import { TriggerDefinitionError } from '../errors.js';
import type { TriggerSource, TriggerSourceType } from '../types.js';
import { SQL_OPERATIONS } from '../validate/sources.js';
import {
  fail,
  isRecord,
  optionalString,
  rejectUnknownKeys,
  requireEnum,
  requireRecord,
  requireString,
} from '../validate/fields.js';

type Json = Record<string, unknown>;

/** A non-empty array of objects, each checked by `each`. */
function records(value: unknown, path: string, each: (item: Json, path: string) => void): void {
  if (!Array.isArray(value) || value.length === 0) fail(path, 'expected a non-empty array of objects');
  value.forEach((item, index) => each(requireRecord(item, `${path}[${index}]`), `${path}[${index}]`));
}

function required(event: Json, path: string, key: string, what: string): void {
  if (event[key] === undefined) fail(path, `missing "${key}" (${what})`);
}

function date(value: unknown, path: string): void {
  if (value !== undefined && (typeof value !== 'string' || Number.isNaN(Date.parse(value))))
    fail(path, 'expected an ISO 8601 date string');
}

/** Per source: the fields its `--event` may carry, and what it must carry. */
const SHAPES: Record<TriggerSourceType, (event: Json, source: TriggerSource) => void> = {
  scheduled(event) {
    rejectUnknownKeys(event, '--event', ['cron', 'scheduledTime']);
    optionalString(event.cron, '--event.cron');
    date(event.scheduledTime, '--event.scheduledTime');
  },
  queue(event) {
    rejectUnknownKeys(event, '--event', ['queue', 'messages']);
    required(event, '--event', 'messages', 'an array of {"body": …, "id"?, "timestamp"?, "attempts"?}');
    optionalString(event.queue, '--event.queue');
    records(event.messages, '--event.messages', (message, path) => {
      rejectUnknownKeys(message, path, ['id', 'body', 'timestamp', 'attempts']);
      required(message, path, 'body', 'the message body');
      optionalString(message.id, `${path}.id`);
      date(message.timestamp, `${path}.timestamp`);
    });
  },
  webhook(event, source) {
    rejectUnknownKeys(event, '--event', ['payload', 'body', 'headers', 'method', 'verified']);
    const method = String(event.method ?? (source.type === 'webhook' ? source.methods?.[0] : undefined) ?? 'POST');
    if (event.payload === undefined && event.body === undefined && !/^(GET|HEAD)$/i.test(method))
      fail('--event', `missing "payload" (JSON) or "body" (a string) for a ${method.toUpperCase()} webhook`);
    if (event.body !== undefined && typeof event.body !== 'string') fail('--event.body', 'expected a string');
    if (event.headers !== undefined) requireRecord(event.headers, '--event.headers');
  },
  objectstore(event) {
    rejectUnknownKeys(event, '--event', ['bucket', 'action', 'object']);
    required(event, '--event', 'object', '{"key": …, "size"?, "etag"?, "uploadedAt"?}');
    optionalString(event.bucket, '--event.bucket');
    if (event.action !== undefined) requireEnum(event.action, '--event.action', ['create', 'delete']);
    const object = requireRecord(event.object, '--event.object');
    rejectUnknownKeys(object, '--event.object', ['key', 'size', 'etag', 'uploadedAt']);
    requireString(object.key, '--event.object.key');
    date(object.uploadedAt, '--event.object.uploadedAt');
  },
  email(event) {
    rejectUnknownKeys(event, '--event', ['from', 'to', 'subject', 'text', 'html', 'headers']);
    for (const key of ['from', 'to', 'subject'] as const) optionalString(event[key], `--event.${key}`);
    if (event.headers !== undefined) requireRecord(event.headers, '--event.headers');
  },
  sqldb(event) {
    rejectUnknownKeys(event, '--event', ['table', 'operation', 'newRow', 'oldRow', 'primaryKey']);
    required(event, '--event', 'table', 'the changed table');
    required(event, '--event', 'operation', SQL_OPERATIONS.join(', '));
    requireString(event.table, '--event.table');
    requireEnum(event.operation, '--event.operation', SQL_OPERATIONS);
  },
  tail(event) {
    rejectUnknownKeys(event, '--event', ['worker', 'logs']);
    required(event, '--event', 'logs', 'an array of {"outcome"?, "status"?, "logs"?, "timestamp"?, …}');
    optionalString(event.worker, '--event.worker');
    records(event.logs, '--event.logs', (log, path) => date(log.timestamp, `${path}.timestamp`));
  },
};

/**
 * Whether the `--event` JSON of `framework triggers test` fits `source`'s event: only that source's fields, the
 * ones it needs present (a queue's `messages`, each with a `body`; a webhook's `payload` or `body` unless it is a
 * GET/HEAD; an object store's `object.key`; a change's `table` and `operation`; a tail's `logs`), dates as ISO 8601
 * strings. No `--event` (`undefined`) is checked as `{}`.
 *
 * @param name The trigger's name, for the message.
 * @returns `undefined` when it fits; otherwise one line naming the trigger, its source type and the field that is
 *   missing or wrong, e.g. `--event for "mailer" (queue): --event: missing "messages" (an array of {"body": …})`.
 * @example
 * ```ts
 * import { eventShapeProblem } from '@framework/trigger/cli';
 *
 * eventShapeProblem('nightly', { type: 'scheduled', cron: '0 3 * * *' }, { scheduledTime: 'soon' });
 * // '--event for "nightly" (scheduled): --event.scheduledTime: expected an ISO 8601 date string'
 * ```
 */
export function eventShapeProblem(name: string, source: TriggerSource, input: unknown): string | undefined {
  if (input !== undefined && !isRecord(input)) return '--event must be a JSON object';
  try {
    SHAPES[source.type]((input ?? {}) as Json, source);
    return undefined;
  } catch (error) {
    if (!(error instanceof TriggerDefinitionError)) throw error;
    return `--event for "${name}" (${source.type}): ${error.message}`;
  }
}
