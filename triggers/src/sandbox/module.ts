import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe } from '../duration.js';
import { TriggerError } from '../errors.js';
import type { TriggerHandler } from '../types.js';
import { fail } from '../validate/fields.js';

/**
 * Validates `defineTrigger({sandbox})` and returns the module's `file:` URL.
 *
 * @throws {TriggerDefinitionError} `sandbox: …` when it is not a `file:` URL or absolute path, or comes with `handle`
 */
export function sandboxModule(value: unknown, handle: unknown): string {
  if (handle !== undefined) fail('sandbox', 'give either handle or sandbox, not both');
  if (value instanceof URL) {
    if (value.protocol !== 'file:') fail('sandbox', `expected a file: URL, got ${value.protocol}`);
    return value.href;
  }
  if (typeof value === 'string' && value.startsWith('file:')) return new URL(value).href;
  if (typeof value === 'string' && isAbsolute(value)) return pathToFileURL(value).href;
  return fail(
    'sandbox',
    `expected a file: URL or an absolute path of the handler module (new URL('./handler.js', import.meta.url)), got ${describe(value)}`,
  );
}

/**
 * The handler of a sandboxed definition outside the runtime (test helpers): the module's default export, in this
 * thread. Its return value is structured-cloned, as it is when it crosses back from a worker.
 *
 * @throws {TriggerError} `TRIGGER_SANDBOX_RESULT_UNCLONEABLE` (not retryable) when the return value cannot be cloned
 */
export function moduleHandler(module: string): TriggerHandler<any, any> {
  return async (event, ctx) => {
    const handle = ((await import(module)) as { default?: unknown }).default;
    if (typeof handle !== 'function') throw new TypeError(`${module} has no default-exported handler function`);
    return cloneResult(await (handle as TriggerHandler<any, any>)(event, ctx));
  };
}

/** `structuredClone(value)`, or `TRIGGER_SANDBOX_RESULT_UNCLONEABLE` when it cannot be cloned. */
function cloneResult(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch (error) {
    throw new TriggerError(
      `The return value of the sandboxed handler cannot cross back from its worker (structured clone): ${error instanceof Error ? error.message : String(error)}`,
      { code: 'TRIGGER_SANDBOX_RESULT_UNCLONEABLE', retryable: false, cause: error },
    );
  }
}
