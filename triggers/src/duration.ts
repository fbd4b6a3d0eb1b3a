import { TriggerDefinitionError } from './errors.js';

/** A duration string: an integer followed by a unit, e.g. `'500ms'`, `'30s'`, `'1m'`, `'2h'`, `'1d'`. */
export type Duration = `${number}${'ms' | 's' | 'm' | 'h' | 'd'}`;

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const PATTERN = /^(\d+)(ms|s|m|h|d)$/;

/**
 * Parses a duration string into milliseconds.
 *
 * Units: `ms`, `s`, `m`, `h`, `d`. The amount is a non-negative integer. A bare
 * number (`30`, `'30'`) is rejected on purpose, because its unit would be a guess.
 *
 * @param value - the duration, e.g. `'30s'`
 * @param path - the field name used in the error message, e.g. `config.timeout`
 * @returns milliseconds
 * @throws {TriggerDefinitionError} code `INVALID_TRIGGER_DEFINITION` when `value` is not a duration string
 * @example
 * ```ts
 * parseDuration('1m'); // 60000
 * parseDuration(30);   // throws: duration: expected a string such as '30s', '1m' or '2h', got the number 30
 * ```
 */
export function parseDuration(value: unknown, path = 'duration'): number {
  if (typeof value === 'number') {
    throw new TriggerDefinitionError(
      path,
      `expected a string such as '30s', '1m' or '2h', got the number ${value} (add a unit)`,
    );
  }
  if (typeof value !== 'string') {
    throw new TriggerDefinitionError(path, `expected a duration string such as '30s', got ${describe(value)}`);
  }
  const match = PATTERN.exec(value.trim());
  if (!match) {
    throw new TriggerDefinitionError(
      path,
      `invalid duration '${value}': use an integer and one of the units ms, s, m, h, d (e.g. '30s', '1m', '2h')`,
    );
  }
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/** A short description of a value's type for error messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
