import { randomBytes } from 'node:crypto';
import { createTriggerRuntime, type LoadedTriggers, type LogEntry } from '@framework/trigger';
import { eventShapeProblem } from '@framework/trigger/cli';
import type { MockQueueMessage } from '@framework/trigger/testing';
import { UsageError, type CliIO } from '../io.js';
import { buildEvent } from './event.js';

/**
 * Runs one trigger once (no retries) with a real runtime context. Emits are
 * recorded, not delivered. Prints the outcome, emits, queue message outcomes
 * and logs. Returns 0 on success, 1 on failure.
 * @throws {UsageError} when `eventJson` does not fit the trigger's source (see `eventShapeProblem`): nothing runs.
 */
export async function testTrigger(
  io: CliIO,
  triggers: LoadedTriggers,
  name: string,
  eventJson: unknown,
  env: unknown,
): Promise<number> {
  const definition = triggers[name]!;
  const problem = eventShapeProblem(name, definition.source, eventJson);
  if (problem) throw new UsageError(problem);
  const event = buildEvent(definition.source, eventJson);
  const emits: Array<{ target: string; payload: unknown }> = [];
  const logs: LogEntry[] = [];
  const runtime = createTriggerRuntime({
    triggers,
    env: env ?? {},
    name: 'cli',
    routeEmit: (target, payload) => void emits.push({ target, payload }),
  });
  runtime.onLog((entry) => logs.push(entry));
  const traceId = randomBytes(16).toString('hex'); // a W3C trace id: 16 random bytes as hex
  const started = performance.now();
  let failure: unknown;
  try {
    await runtime.dispatch(name, event, { retries: 0, traceId });
  } catch (error) {
    failure = error;
  }
  const ms = Math.round(performance.now() - started);
  await runtime.stop({ timeout: '10s' });

  const out: string[] = [];
  if (failure === undefined) out.push(`ok  ${name} (${definition.source.type}) in ${ms} ms`);
  else {
    const code = (failure as { code?: unknown }).code;
    out.push(
      `FAILED  ${name} (${definition.source.type}) in ${ms} ms: ${failure instanceof Error ? failure.message : String(failure)}${typeof code === 'string' ? ` [${code}]` : ''}`,
    );
  }
  out.push(`trace ${traceId}`);
  if ('messages' in event) {
    out.push('messages:');
    for (const message of event.messages as MockQueueMessage[]) {
      const outcome = message.outcome ?? (failure === undefined ? 'ack (implicit)' : 'retry (implicit)');
      out.push(`  ${message.id}  ${outcome}`);
    }
  }
  out.push(emits.length ? 'emits:' : 'emits: none');
  for (const emit of emits) out.push(`  ${emit.target}  ${JSON.stringify(emit.payload)}`);
  const shown = logs.filter((l) => l.data?.event !== 'emit');
  out.push(shown.length ? 'logs:' : 'logs: none');
  for (const log of shown) out.push(`  ${log.level}  ${log.message}`);
  io.stdout.write(`${out.join('\n')}\n`);
  return failure === undefined ? 0 : 1;
}
