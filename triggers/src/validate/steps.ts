import type { CancelOn } from '../types.js';
import { fail, rejectUnknownKeys, requireRecord, requireString } from './fields.js';

/** Validates `config.cancelOn`: a non-empty list of `{event, match?}`. */
export function resolveCancelOn(value: unknown): { cancelOn?: readonly CancelOn[] } {
  if (value === undefined) return {};
  if (!Array.isArray(value) || value.length === 0)
    fail('config.cancelOn', 'expected a non-empty array of { event, match? }');
  const entries = value.map((item: unknown, index) => {
    const path = `config.cancelOn[${index}]`;
    const record = requireRecord(item, path);
    rejectUnknownKeys(record, path, ['event', 'match']);
    const event = requireString(record.event, `${path}.event`);
    const match = record.match;
    const paths = typeof match === 'string' ? [match] : match;
    if (match !== undefined && !(Array.isArray(paths) && paths.every((p) => typeof p === 'string' && p !== '')))
      fail(`${path}.match`, 'expected a dotted path or a list of paths compared with the run input');
    return Object.freeze({
      event,
      ...(match === undefined
        ? {}
        : { match: typeof match === 'string' ? match : Object.freeze([...(match as string[])]) }),
    });
  });
  return { cancelOn: Object.freeze(entries) };
}
