import { TriggerError } from '../errors.js';

/** The abort reason of a run cancelled with `runtime.cancel(id)`: not retryable. */
export function canceledError(id: string): TriggerError {
  return new TriggerError(`run ${id} was cancelled`, { code: 'RUN_CANCELED', retryable: false, context: { id } });
}

/** What a cancel aborts: an AbortController, or an attempt's `RunAbort`. */
export interface Abortable {
  abort(reason?: unknown): void;
}

/** The attempts running in this process, by run id, so a cancel can abort their `ctx.signal`. */
export class CancelRegistry {
  private readonly running = new Map<string, Set<Abortable>>();

  /** Registers an attempt of run `id` (anything with `abort(reason)`); returns the function that forgets it. */
  register(id: string, controller: Abortable): () => void {
    let set = this.running.get(id);
    if (!set) this.running.set(id, (set = new Set()));
    set.add(controller);
    return () => {
      set.delete(controller);
      if (set.size === 0 && this.running.get(id) === set) this.running.delete(id);
    };
  }

  /** Aborts the attempts of run `id` in this process with `RUN_CANCELED`; `false` when none runs here. */
  abort(id: string): boolean {
    const set = this.running.get(id);
    if (!set) return false;
    for (const controller of set) controller.abort(canceledError(id));
    return true;
  }

  has(id: string): boolean {
    return this.running.has(id);
  }
}
