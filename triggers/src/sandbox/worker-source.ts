/**
 * The program each sandbox worker thread runs (evaluated as a CommonJS
 * script, so the package needs no separate worker file in `dist`). It waits
 * for `run` messages, imports the handler module (its default export) once,
 * calls it with the event and a context whose methods post messages back to
 * the runtime, and answers `done` with the handler's return value
 * (structured clone; a value that cannot be cloned becomes the error
 * `TRIGGER_SANDBOX_RESULT_UNCLONEABLE`), or with the error, as data, when it threw.
 *
 * Messages in: `run`, `abort` (the reason as error data), `emitted` (reply to
 * an `emit`). Messages out: `log`, `noRetry`, `decide` (a queue message's
 * ack / retry / deadLetter), `emit`, `done`.
 *
 * @module
 */
export const WORKER_SOURCE = String.raw`
'use strict';
const { parentPort } = require('node:worker_threads');
const post = (message) => parentPort.postMessage(message);
let current;

function errorData(error) {
  if (error instanceof Error) {
    const data = { name: error.name, message: error.message };
    if (typeof error.code === 'string') data.code = error.code;
    if (typeof error.retryable === 'boolean') data.retryable = error.retryable;
    return data;
  }
  return { name: 'Error', message: String(error) };
}

function revive(data) {
  const error = new Error(data.message);
  error.name = data.name;
  if (data.code !== undefined) error.code = data.code;
  if (data.retryable !== undefined) error.retryable = data.retryable;
  return error;
}

function fail(message, code) {
  const error = new Error(message);
  error.name = 'TriggerError';
  error.code = code;
  error.retryable = false;
  throw error;
}

function unsupported(what) {
  fail(what + ' is not available in a sandboxed handler (only structured-clone data crosses into its worker thread)', 'TRIGGER_SANDBOX_UNSUPPORTED');
}

function withDecisions(event) {
  const messages = event.messages.map((message) => Object.freeze({
    ...message,
    ack: () => post({ type: 'decide', id: message.id, action: 'ack' }),
    retry: (options) => post({ type: 'decide', id: message.id, action: 'retry', delay: options && options.delay }),
    deadLetter: (reason) => post({ type: 'decide', id: message.id, action: 'deadLetter', reason }),
  }));
  return Object.freeze({ ...event, messages });
}

function contextOf(run, controller, emits) {
  let seq = 0;
  const log = (level) => (message, data) => post({ type: 'log', level, message: String(message), data });
  const ctx = {
    traceId: run.traceId,
    attempt: run.attempt,
    trigger: run.trigger,
    signal: controller.signal,
    log: Object.freeze({ debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') }),
    noRetry: () => post({ type: 'noRetry' }),
    emit: (target, payload) =>
      new Promise((resolve, reject) => {
        const id = ++seq;
        emits.set(id, { resolve, reject });
        post({ type: 'emit', seq: id, target, payload });
      }),
    waitUntil: () => unsupported('ctx.waitUntil'),
  };
  Object.defineProperty(ctx, 'env', { get: () => unsupported('ctx.env'), enumerable: true });
  Object.defineProperty(ctx, 'step', { get: () => unsupported('ctx.step'), enumerable: true });
  return Object.freeze(ctx);
}

parentPort.on('message', async (message) => {
  if (message.type === 'abort') {
    if (current) current.controller.abort(revive(message.reason));
    return;
  }
  if (message.type === 'emitted') {
    const pending = current && current.emits.get(message.seq);
    if (!pending) return;
    current.emits.delete(message.seq);
    if (message.error) pending.reject(revive(message.error));
    else pending.resolve();
    return;
  }
  if (message.type !== 'run') return;
  const controller = new AbortController();
  const emits = new Map();
  current = { controller, emits };
  try {
    const module = await import(message.module);
    const handle = module.default;
    if (typeof handle !== 'function') fail(message.module + ' has no default-exported handler function', 'TRIGGER_SANDBOX_MODULE');
    const event = message.queue ? withDecisions(message.event) : message.event;
    const value = await handle(event, contextOf(message, controller, emits));
    try {
      post({ type: 'done', value });
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      post({
        type: 'done',
        error: {
          name: 'TriggerError',
          message: 'The return value of the sandboxed handler cannot cross back from its worker (structured clone): ' + text,
          code: 'TRIGGER_SANDBOX_RESULT_UNCLONEABLE',
          retryable: false,
        },
      });
    }
  } catch (error) {
    post({ type: 'done', error: errorData(error) });
  } finally {
    current = undefined;
  }
});
`;
