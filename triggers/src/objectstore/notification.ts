import { TriggerError } from '../errors.js';
import type { ObjectStoreEvent, ObjectStoreEventType, ObjectStoreSource } from '../types.js';

/** One object event read from an S3 event notification. */
export interface ObjectNotice {
  /** The most specific of the five event types (`object:create:put`, …, `object:delete`). */
  type: ObjectStoreEventType;
  event: ObjectStoreEvent;
}

function invalid(reason: string): TriggerError {
  return new TriggerError(`Invalid S3 event notification: ${reason}`, {
    code: 'OBJECTSTORE_INVALID_NOTIFICATION',
    retryable: false,
  });
}

/** The event type of an S3 `eventName` (with or without the `s3:` prefix); `undefined` for kinds we do not map. */
export function objectEventType(eventName: string): ObjectStoreEventType | undefined {
  const name = eventName.replace(/^s3:/, '');
  if (name === 'ObjectCreated:Put') return 'object:create:put';
  if (name === 'ObjectCreated:Copy') return 'object:create:copy';
  if (name === 'ObjectCreated:CompleteMultipartUpload') return 'object:create:multipart';
  if (name.startsWith('ObjectCreated:')) return 'object:create';
  if (name.startsWith('ObjectRemoved:')) return 'object:delete';
  return undefined;
}

/** An S3 key as it appears in notifications (URL-encoded, `+` for spaces) decoded. */
export function decodeObjectKey(key: string): string {
  try {
    return decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    throw invalid(`object key '${key}' is not valid URL encoding`);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads an S3 event notification, the JSON S3, R2 and MinIO send:
 * `{Records: [{eventName, eventTime, s3: {bucket: {name}, object: {key, size, eTag}}}]}`.
 * `s3:ObjectCreated:Put|Copy|CompleteMultipartUpload` map to the specific
 * create types, other `ObjectCreated:*` to `object:create`, `ObjectRemoved:*`
 * to `object:delete`; other records (restore, replication, `s3:TestEvent`) are
 * skipped. Keys are URL-decoded; a delete's `size` is 0 and `etag` `''`.
 *
 * @throws {TriggerError} code `OBJECTSTORE_INVALID_NOTIFICATION` for JSON that does not parse or records
 * without bucket or key
 * @example
 * ```ts
 * const [notice] = parseObjectNotification(await request.text());
 * // notice.type === 'object:create:put'; notice.event.object.key === 'photos/Happy Face.jpg'
 * ```
 */
export function parseObjectNotification(body: unknown): ObjectNotice[] {
  let value = body;
  if (value instanceof Uint8Array) value = new TextDecoder().decode(value);
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw invalid('the body is not JSON');
    }
  }
  if (!isRecord(value)) throw invalid('expected a JSON object');
  if (value.Records === undefined) return []; // e.g. {"Event": "s3:TestEvent"}
  if (!Array.isArray(value.Records)) throw invalid('Records is not an array');
  const notices: ObjectNotice[] = [];
  value.Records.forEach((record: unknown, i: number) => {
    if (!isRecord(record) || typeof record.eventName !== 'string') throw invalid(`Records[${i}].eventName is missing`);
    const type = objectEventType(record.eventName);
    if (!type) return;
    const s3 = isRecord(record.s3) ? record.s3 : {};
    const bucket = isRecord(s3.bucket) ? s3.bucket.name : undefined;
    const object = isRecord(s3.object) ? s3.object : {};
    if (typeof bucket !== 'string' || bucket === '') throw invalid(`Records[${i}].s3.bucket.name is missing`);
    if (typeof object.key !== 'string' || object.key === '') throw invalid(`Records[${i}].s3.object.key is missing`);
    const uploadedAt = new Date(typeof record.eventTime === 'string' ? record.eventTime : Date.now());
    notices.push({
      type,
      event: {
        bucket,
        action: type === 'object:delete' ? 'delete' : 'create',
        object: {
          key: decodeObjectKey(object.key),
          size: typeof object.size === 'number' ? object.size : 0,
          etag: typeof object.eTag === 'string' ? object.eTag : typeof object.etag === 'string' ? object.etag : '',
          uploadedAt: Number.isNaN(uploadedAt.getTime()) ? new Date() : uploadedAt,
        },
      },
    });
  });
  return notices;
}

/**
 * Whether an objectstore source wants `notice`: same bucket, an event type it
 * lists (`object:create` covers the three specific create types), and a key
 * that starts with `prefix` and ends with `suffix`.
 *
 * @example
 * ```ts
 * objectSourceMatches({ type: 'objectstore', bucket: 'media', events: ['object:create'], suffix: '.jpg' }, notice);
 * ```
 */
export function objectSourceMatches(source: ObjectStoreSource, notice: ObjectNotice): boolean {
  const { event, type } = notice;
  if (source.bucket !== event.bucket) return false;
  const wanted =
    source.events.includes(type) || (type.startsWith('object:create') && source.events.includes('object:create'));
  if (!wanted) return false;
  if (source.prefix && !event.object.key.startsWith(source.prefix)) return false;
  if (source.suffix && !event.object.key.endsWith(source.suffix)) return false;
  return true;
}
