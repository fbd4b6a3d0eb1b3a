import type { Worker } from 'node:worker_threads';
import { TriggerError } from '../errors.js';
import type { LogLevel } from '../types.js';
import { WORKER_SOURCE } from './worker-source.js';

/** An error as it crosses the thread boundary. */
export interface ErrorData {
  name: string;
  message: string;
  code?: string;
  retryable?: boolean;
}

/** One handler run to send to a worker: structured-clone data only. */
export interface SandboxTask {
  /** `file:` URL of the handler module. */
  module: string;
  event: unknown;
  /** The event is a queue batch: its messages get `ack`/`retry`/`deadLetter` that post decisions back. */
  queue: boolean;
  traceId: string;
  attempt: number;
  trigger: string;
}

/** What the worker asks of the runtime while the handler runs. */
export interface SandboxHooks {
  log(level: LogLevel, message: string, data: unknown): void;
  noRetry(): void;
  emit(target: string, payload: unknown): Promise<void>;
  decide(id: string, action: 'ack' | 'retry' | 'deadLetter', detail: { delay?: unknown; reason?: unknown }): void;
}

/**
 * A run in a worker: `result` settles with the handler (resolving with its return value, a structured clone);
 * `terminate()` ends the worker (and the run) at once.
 */
export interface SandboxRun {
  result: Promise<unknown>;
  terminate(): Promise<void>;
}

type FromWorker =
  | { type: 'log'; level: LogLevel; message: string; data?: unknown }
  | { type: 'noRetry' }
  | { type: 'emit'; seq: number; target: string; payload: unknown }
  | { type: 'decide'; id: string; action: 'ack' | 'retry' | 'deadLetter'; delay?: unknown; reason?: unknown }
  | { type: 'done'; value?: unknown; error?: ErrorData };

/**
 * The worker threads of one sandboxed trigger: at most `size` (its
 * `concurrency`; the trigger's gate never asks for more runs at once), made
 * on demand and reused between runs. A worker whose run is terminated, or
 * that crashed, is dropped and replaced by the next run.
 */
export class SandboxPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Set<Worker>();
  private closed = false;

  constructor(readonly size: number) {}

  /** Workers alive now (busy and idle). */
  get alive(): number {
    return this.idle.length + this.busy.size;
  }

  /** Runs `task` in a free worker; `signal` aborting is forwarded to the handler's `ctx.signal`. */
  run(task: SandboxTask, hooks: SandboxHooks, signal: AbortSignal): SandboxRun {
    if (this.closed) {
      const result = Promise.reject(
        new TriggerError('The sandbox of this trigger was closed (the runtime stopped)', {
          code: 'RUNTIME_STOPPED',
          retryable: true,
        }),
      );
      return { result, terminate: async () => {} };
    }
    const worker = this.idle.pop() ?? this.spawn();
    worker.ref();
    this.busy.add(worker);
    let cleanup = () => {};
    const result = new Promise<unknown>((resolve, reject) => {
      const onAbort = () => worker.postMessage({ type: 'abort', reason: errorData(signal.reason) });
      const onMessage = (message: FromWorker) => {
        if (message.type === 'done') {
          cleanup();
          this.giveBack(worker);
          if (message.error) reject(revive(message.error));
          else resolve(message.value);
        } else answer(worker, message, hooks);
      };
      const onError = (error: Error) => {
        cleanup();
        this.drop(worker);
        reject(error);
      };
      const onExit = (code: number) => {
        cleanup();
        this.drop(worker);
        reject(
          new TriggerError(`The sandbox worker of "${task.trigger}" exited (code ${code}) before the handler settled`, {
            code: 'TRIGGER_SANDBOX_EXITED',
            retryable: true,
          }),
        );
      };
      cleanup = () => {
        signal.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        worker.postMessage({ type: 'run', ...task });
      } catch (error) {
        cleanup();
        this.giveBack(worker);
        reject(
          new TriggerError(`The event of "${task.trigger}" cannot cross into its sandbox: ${messageOf(error)}`, {
            code: 'TRIGGER_SANDBOX_UNCLONEABLE',
            retryable: false,
            cause: error,
          }),
        );
      }
      if (signal.aborted) onAbort();
    });
    return {
      result,
      terminate: async () => {
        this.drop(worker);
        await worker.terminate();
        // Its replacement starts now, while the run's retry waits for its delay.
        if (!this.closed) this.giveBack(this.spawn(), true);
      },
    };
  }

  /** Terminates every worker; later runs fail with `RUNTIME_STOPPED`. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.idle.splice(0), ...this.busy];
    this.busy.clear();
    await Promise.all(all.map((worker) => worker.terminate()));
  }

  private spawn(): Worker {
    const worker = new (workerThreads().Worker)(WORKER_SOURCE, { eval: true });
    // A worker that dies while idle (e.g. a timer its last handler left behind threw) is forgotten; its 'error'
    // must not go unhandled in this process. During a run, the run's own listeners report both.
    worker.on('error', () => {});
    worker.once('exit', () => this.drop(worker));
    return worker;
  }

  private giveBack(worker: Worker, fresh = false): void {
    if (!this.busy.delete(worker) && !fresh) return;
    if (this.closed) {
      void worker.terminate();
      return;
    }
    // An idle worker does not keep the process alive.
    worker.unref();
    this.idle.push(worker);
  }

  private drop(worker: Worker): void {
    this.busy.delete(worker);
    const index = this.idle.indexOf(worker);
    if (index >= 0) this.idle.splice(index, 1);
  }
}

/** Carries out a worker's request; an `emit` is answered with `emitted`. */
function answer(worker: Worker, message: Exclude<FromWorker, { type: 'done' }>, hooks: SandboxHooks): void {
  switch (message.type) {
    case 'log':
      hooks.log(message.level, message.message, message.data);
      return;
    case 'noRetry':
      hooks.noRetry();
      return;
    case 'decide':
      hooks.decide(message.id, message.action, { delay: message.delay, reason: message.reason });
      return;
    case 'emit':
      hooks.emit(message.target, message.payload).then(
        () => worker.postMessage({ type: 'emitted', seq: message.seq }),
        (error: unknown) => worker.postMessage({ type: 'emitted', seq: message.seq, error: errorData(error) }),
      );
  }
}

export function errorData(error: unknown): ErrorData {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const data: ErrorData = { name: error.name, message: error.message };
  const { code, retryable } = error as { code?: unknown; retryable?: unknown };
  if (typeof code === 'string') data.code = code;
  if (typeof retryable === 'boolean') data.retryable = retryable;
  return data;
}

/** The runtime's view of a handler's error: a TriggerError when it carried `code` and `retryable`. */
export function revive(data: ErrorData): Error {
  const error =
    data.code !== undefined && data.retryable !== undefined
      ? new TriggerError(data.message, { code: data.code, retryable: data.retryable })
      : new Error(data.message);
  error.name = data.name;
  return error;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Node's `worker_threads`, loaded when a sandbox first starts a worker, not when the runtime is imported: runtimes
 * without it (workerd) load the trigger runtime and run every trigger that is not sandboxed.
 * @throws {TriggerError} `TRIGGER_SANDBOX_UNSUPPORTED` where the runtime has no `worker_threads`
 */
function workerThreads(): typeof import('node:worker_threads') {
  const loaded =
    typeof process !== 'undefined' && typeof process.getBuiltinModule === 'function'
      ? (process.getBuiltinModule('node:worker_threads') as typeof import('node:worker_threads') | undefined)
      : undefined;
  if (!loaded?.Worker)
    throw new TriggerError('Sandboxed triggers need Node.js worker_threads, which this runtime does not have', {
      code: 'TRIGGER_SANDBOX_UNSUPPORTED',
      retryable: false,
    });
  return loaded;
}
