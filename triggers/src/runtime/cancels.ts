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
  /** One attempt per run id in the common case (no Set); a Set when attempts of one run overlap. */
  private readonly running = new Map<string, Abortable | Set<Abortable>>();

  /** Registers an attempt of run `id` (anything with `abort(reason)`); returns the function that forgets it. */
  register(id: string, controller: Abortable): () => void {
    this.add(id, controller);
    return () => this.remove(id, controller);
  }

  /** Registers an attempt of run `id`, until {@link remove} with the same arguments. */
  add(id: string, controller: Abortable): void {
    const current = this.running.get(id);
    if (current === undefined) this.running.set(id, controller);
    else if (current instanceof Set) current.add(controller);
    else if (current !== controller) this.running.set(id, new Set([current, controller]));
  }

  /** Forgets an attempt of run `id` that {@link add} registered. */
  remove(id: string, controller: Abortable): void {
    const current = this.running.get(id);
    if (current === controller) this.running.delete(id);
    else if (current instanceof Set) {
      current.delete(controller);
      if (current.size === 0) this.running.delete(id);
    }
  }

  /** Aborts the attempts of run `id` in this process with `RUN_CANCELED`; `false` when none runs here. */
  abort(id: string): boolean {
    const current = this.running.get(id);
    if (current === undefined) return false;
    if (current instanceof Set) for (const controller of [...current]) controller.abort(canceledError(id));
    else current.abort(canceledError(id));
    return true;
  }

  has(id: string): boolean {
    return this.running.has(id);
  }
}
