import { describe } from '../duration.js';
import { TriggerDefinitionError } from '../errors.js';

/** Small assertion helpers that name the offending field in their message. */

export function fail(path: string, message: string): never {
  throw new TriggerDefinitionError(path, message);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function requireRecord(value: unknown, path: string): Record<string, unknown> {
  if (!isRecord(value)) fail(path, `expected an object, got ${describe(value)}`);
  return value;
}

export function requireString(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    fail(path, `expected a non-empty string, got ${describe(value)}`);
  return value;
}

export function optionalString(value: unknown, path: string): string | undefined {
  return value === undefined ? undefined : requireString(value, path);
}

export function requireInteger(value: unknown, path: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    fail(path, `expected an integer from ${min} to ${max}, got ${describe(value)}`);
  }
  return value;
}

/** Validates a non-empty array whose items are all in `allowed`, without duplicates. */
export function requireEnumList<T extends string>(value: unknown, path: string, allowed: readonly T[]): T[] {
  if (!Array.isArray(value) || value.length === 0) fail(path, `expected a non-empty array of ${list(allowed)}`);
  value.forEach((item, index) => requireEnum(item, `${path}[${index}]`, allowed));
  if (new Set(value).size !== value.length) fail(path, 'contains duplicates');
  return value as T[];
}

export function requireEnum<T extends string>(value: unknown, path: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !allowed.includes(value as T)) {
    fail(path, `expected one of ${list(allowed)}, got ${describe(value)}`);
  }
  return value as T;
}

export function requireStringList(value: unknown, path: string): string[] {
  if (!Array.isArray(value) || value.length === 0) fail(path, 'expected a non-empty array of strings');
  value.forEach((item, index) => requireString(item, `${path}[${index}]`));
  return value as string[];
}

/** Rejects keys that the record does not define, so typos fail loudly. */
export function rejectUnknownKeys(record: Record<string, unknown>, path: string, known: readonly string[]): void {
  for (const key of Object.keys(record)) {
    if (!known.includes(key)) fail(`${path}.${key}`, `unknown field (expected one of ${list(known)})`);
  }
}

function list(values: readonly string[]): string {
  return values.map((v) => `'${v}'`).join(', ');
}
