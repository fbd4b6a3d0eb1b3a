import type { EventWaits } from '../engine/wait-types.js';
import { TriggerError } from '../errors.js';
import type { CancelOn, EventMatch } from '../types.js';
import type { StepMessage } from './steps.js';

/** The value at a dotted `path` of `value` (`'order.id'`), or `undefined`. */
export function valueAt(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/**
 * The expected values of a `match`: paths (a string or a list) take the run's
 * `input` value at the same path; a record gives them. Values are kept as JSON
 * would keep them.
 * @throws {TriggerError} code `INVALID_STEP` for a path missing from the input, or another shape
 */
export function matchValues(match: EventMatch | undefined, input: unknown, where: string): Record<string, unknown> {
  if (match === undefined) return {};
  if (typeof match === 'string' || Array.isArray(match)) {
    const paths: readonly string[] = typeof match === 'string' ? [match] : match;
    return Object.fromEntries(
      paths.map((path) => {
        const expected = valueAt(input, path);
        if (expected === undefined)
          throw new TriggerError(`${where}: the run's input has no value at '${path}' to match`, {
            code: 'INVALID_STEP',
            retryable: false,
          });
        return [path, JSON.parse(JSON.stringify(expected)) as unknown];
      }),
    );
  }
  if (typeof match === 'object' && match !== null) return JSON.parse(JSON.stringify(match)) as Record<string, unknown>;
  throw new TriggerError(`${where}: expected a path, a list of paths or a record of path → value`, {
    code: 'INVALID_STEP',
    retryable: false,
  });
}

/** Whether every path of `expected` has an equal (as JSON) value in `data`. */
export function matches(expected: Record<string, unknown>, data: unknown): boolean {
  return Object.entries(expected).every(
    ([path, value]) => JSON.stringify(valueAt(data, path)) === JSON.stringify(value),
  );
}

/**
 * Registers a suspended run for each of its trigger's `cancelOn` entries (one
 * waiter per entry, replaced on every suspension). An entry whose match path
 * is missing from the run's input is not registered.
 */
export async function registerCancelOn(
  waits: EventWaits,
  entries: readonly CancelOn[],
  runId: string,
  message: StepMessage,
  until: number,
): Promise<void> {
  await Promise.all(
    entries.map((entry, n) => {
      let match: Record<string, unknown>;
      try {
        match = matchValues(entry.match, message.input, 'cancelOn');
      } catch {
        return undefined;
      }
      return waits.add(entry.event, {
        key: `${runId}|cancel:${n}`,
        kind: 'cancel',
        runId,
        trigger: message.trigger,
        queue: message.queue,
        messageId: message.id,
        match,
        until,
      });
    }),
  );
}
