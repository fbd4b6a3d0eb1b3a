import { DEFAULT_WEBHOOK_BODY_LIMIT, MAX_WEBHOOK_BODY_LIMIT } from '../body-limit.js';
import { normalizeSchedule } from './schedule.js';
import { parseDuration, type Duration } from '../duration.js';
import { resolveBackoff } from '../runtime/backoff.js';
import type {
  CatchUpPolicy,
  HttpMethod,
  OverlapPolicy,
  ObjectStoreEventType,
  SqlOperation,
  TailFilterField,
  TailFilterOperator,
  TriggerSource,
  TriggerSourceType,
} from '../types.js';
import {
  fail,
  optionalString,
  rejectUnknownKeys,
  requireEnum,
  requireEnumList,
  requireInteger,
  requireRecord,
  requireString,
  requireStringList,
} from './fields.js';

export const SOURCE_TYPES: readonly TriggerSourceType[] = [
  'scheduled',
  'queue',
  'objectstore',
  'webhook',
  'email',
  'sqldb',
  'tail',
];
export const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
export const OBJECTSTORE_EVENTS: readonly ObjectStoreEventType[] = [
  'object:create',
  'object:delete',
  'object:create:put',
  'object:create:copy',
  'object:create:multipart',
];
export const OVERLAP_POLICIES: readonly OverlapPolicy[] = ['skip', 'allow', 'queue'];
export const CATCH_UP_POLICIES: readonly CatchUpPolicy[] = ['none', 'latest', 'all'];
export const SQL_OPERATIONS: readonly SqlOperation[] = ['INSERT', 'UPDATE', 'DELETE'];
export const TAIL_FIELDS: readonly TailFilterField[] = ['outcome', 'status', 'method', 'samplingRate'];
export const TAIL_OPERATORS: readonly TailFilterOperator[] = ['equals', 'contains', 'startsWith'];

/** Default queue batch size and batch timeout. */
export const QUEUE_DEFAULTS = { batchSize: 10, batchTimeout: '5s' } as const;

type Raw = Record<string, unknown>;
type Normalizer = (source: Raw) => Raw;

const normalizers: Record<TriggerSourceType, Normalizer> = {
  scheduled(source) {
    rejectUnknownKeys(source, 'source', ['type', 'cron', 'every', 'timezone', 'overlap', 'catchUp']);
    const overlap =
      source.overlap === undefined ? 'skip' : requireEnum(source.overlap, 'source.overlap', OVERLAP_POLICIES);
    const catchUp =
      source.catchUp === undefined ? 'none' : requireEnum(source.catchUp, 'source.catchUp', CATCH_UP_POLICIES);
    return { type: 'scheduled', ...normalizeSchedule(source), overlap, catchUp };
  },
  queue(source) {
    rejectUnknownKeys(source, 'source', ['type', 'name', 'batchSize', 'batchTimeout', 'retryDelay', 'deadLetterQueue']);
    const name = requireString(source.name, 'source.name');
    const batchSize =
      source.batchSize === undefined
        ? QUEUE_DEFAULTS.batchSize
        : requireInteger(source.batchSize, 'source.batchSize', 1, 100);
    const batchTimeout = source.batchTimeout ?? QUEUE_DEFAULTS.batchTimeout;
    parseDuration(batchTimeout, 'source.batchTimeout');
    if (source.retryDelay !== undefined) resolveBackoff(source.retryDelay as Duration, 'source.retryDelay');
    const deadLetterQueue = optionalString(source.deadLetterQueue, 'source.deadLetterQueue');
    if (deadLetterQueue === name) fail('source.deadLetterQueue', `must differ from the queue name '${name}'`);
    return withoutUndefined({
      type: 'queue',
      name,
      batchSize,
      batchTimeout,
      retryDelay: source.retryDelay,
      deadLetterQueue,
    });
  },
  objectstore(source) {
    rejectUnknownKeys(source, 'source', ['type', 'bucket', 'events', 'prefix', 'suffix']);
    return withoutUndefined({
      type: 'objectstore',
      bucket: requireString(source.bucket, 'source.bucket'),
      events: [...requireEnumList(source.events, 'source.events', OBJECTSTORE_EVENTS)],
      prefix: source.prefix === undefined ? undefined : requireStringAllowEmpty(source.prefix, 'source.prefix'),
      suffix: source.suffix === undefined ? undefined : requireStringAllowEmpty(source.suffix, 'source.suffix'),
    });
  },
  webhook(source) {
    rejectUnknownKeys(source, 'source', ['type', 'path', 'methods', 'verifier', 'maxBodySize']);
    const path = requireString(source.path, 'source.path');
    if (!path.startsWith('/')) fail('source.path', `must start with '/', got '${path}'`);
    if (/[?#\s]/.test(path))
      fail('source.path', `must be a plain path without query, fragment or spaces, got '${path}'`);
    const methods =
      source.methods === undefined ? ['POST'] : [...requireEnumList(source.methods, 'source.methods', HTTP_METHODS)];
    if (source.verifier !== undefined && typeof source.verifier !== 'function') {
      fail('source.verifier', 'expected a verifier function (request, rawBody) => Promise<{valid, error?}>');
    }
    const maxBodySize =
      source.maxBodySize === undefined
        ? DEFAULT_WEBHOOK_BODY_LIMIT
        : requireInteger(source.maxBodySize, 'source.maxBodySize', 1, MAX_WEBHOOK_BODY_LIMIT);
    return withoutUndefined({ type: 'webhook', path, methods, verifier: source.verifier, maxBodySize });
  },
  email(source) {
    rejectUnknownKeys(source, 'source', ['type', 'address', 'domain']);
    const address = optionalString(source.address, 'source.address');
    if (address !== undefined && !/^[^@\s]+@[^@\s]+$/.test(address))
      fail('source.address', `not an email address: '${address}'`);
    const domain = optionalString(source.domain, 'source.domain');
    if (domain !== undefined && /[@\s]/.test(domain)) fail('source.domain', `not a domain name: '${domain}'`);
    return withoutUndefined({ type: 'email', address, domain });
  },
  sqldb(source) {
    rejectUnknownKeys(source, 'source', ['type', 'database', 'tables', 'operations']);
    return withoutUndefined({
      type: 'sqldb',
      database: requireString(source.database, 'source.database'),
      tables: source.tables === undefined ? undefined : [...requireStringList(source.tables, 'source.tables')],
      operations:
        source.operations === undefined
          ? undefined
          : [...requireEnumList(source.operations, 'source.operations', SQL_OPERATIONS)],
    });
  },
  tail(source) {
    rejectUnknownKeys(source, 'source', ['type', 'workers', 'filters']);
    const workers = [...requireStringList(source.workers, 'source.workers')];
    if (source.filters === undefined) return { type: 'tail', workers };
    if (!Array.isArray(source.filters)) fail('source.filters', 'expected an array of filters');
    const filters = source.filters.map((filter, index) => normalizeTailFilter(filter, `source.filters[${index}]`));
    return { type: 'tail', workers, filters };
  },
};

/** Validates a source record and returns a copy with defaults applied. */
export function normalizeSource(value: unknown): TriggerSource {
  const source = requireRecord(value, 'source');
  const type = requireEnum(source.type, 'source.type', SOURCE_TYPES);
  return normalizers[type](source) as unknown as TriggerSource;
}

function normalizeTailFilter(value: unknown, path: string): Raw {
  const filter = requireRecord(value, path);
  rejectUnknownKeys(filter, path, ['field', 'value', 'operator']);
  const field = requireEnum(filter.field, `${path}.field`, TAIL_FIELDS);
  const operator =
    filter.operator === undefined ? 'equals' : requireEnum(filter.operator, `${path}.operator`, TAIL_OPERATORS);
  if (field === 'samplingRate') {
    if (typeof filter.value !== 'number' || !(filter.value >= 0 && filter.value <= 1)) {
      fail(`${path}.value`, 'samplingRate expects a number from 0 to 1');
    }
    if (operator !== 'equals') fail(`${path}.operator`, `samplingRate only supports 'equals'`);
  } else if (typeof filter.value !== 'string' && !(typeof filter.value === 'number' && Number.isFinite(filter.value))) {
    fail(`${path}.value`, 'expected a string or a number');
  }
  return { field, value: filter.value, operator };
}

function requireStringAllowEmpty(value: unknown, path: string): string {
  if (typeof value !== 'string') fail(path, 'expected a string');
  return value;
}

function withoutUndefined(record: Raw): Raw {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
}
