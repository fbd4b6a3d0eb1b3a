/**
 * Engine records of runs (stored messages and what became of them), fleet-wide limits and queue
 * administration: the optional parts of the engine contract.
 *
 * @module
 */

/**
 * Where a stored message (a run) stands: `waiting` (ready or prioritized), `delayed` (sent with a delay, or
 * waiting for a retry), `active` (a handler runs it), `completed` (acked), `failed` (retries spent,
 * dead-lettered, expired or cancelled while running).
 */
export type EngineRunStatus = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed';

/** A stored message as an engine reports it. Times are `Date`s. */
export interface EngineRun {
  id: string;
  queue: string;
  body: unknown;
  status: EngineRunStatus;
  /** Deliveries started (1-based once delivered; 0 while it never ran). */
  attempts: number;
  /** The handler's return value once completed. */
  result?: unknown;
  /** Why it failed, once failed. */
  error?: string;
  createdAt: Date;
  startedAt?: Date;
  finishedAt?: Date;
}

/** A run that finished for good, as `onFinished` listeners receive it. */
export interface FinishedRun {
  id: string;
  queue: string;
  status: 'completed' | 'failed';
  result?: unknown;
  error?: string;
}

/** What `QueueAdmin.clean` removes: finished messages older than `ageMs`, at most `limit`. */
export type CleanableState = 'completed' | 'failed';

/** Administration of stored queues. */
export interface QueueAdmin {
  /** Stops delivering `queue`'s messages (on every instance for a shared engine); sends still store them. */
  pause(queue: string): Promise<void>;
  resume(queue: string): Promise<void>;
  isPaused(queue: string): Promise<boolean>;
  /** Removes finished messages of `state` older than `ageMs` (at most `limit`); resolves with their ids. */
  clean(queue: string, state: CleanableState, ageMs: number, limit: number): Promise<string[]>;
}

/** A held slot of a fleet-wide semaphore. */
export interface FleetSlot {
  release(): Promise<void>;
}

/** Limits shared by every instance of an engine. */
export interface FleetLimits {
  /**
   * Takes one of `limit` slots named `key`, or resolves `undefined` when all are held. A slot is a lease of
   * `leaseMs`, renewed while held; a holder that dies frees it after `leaseMs`.
   */
  tryAcquire(key: string, limit: number, leaseMs: number): Promise<FleetSlot | undefined>;
  /**
   * Counts one start in the current fixed window of `windowMs` for `key`: resolves `0` when it is within
   * `limit`, else the ms until the window ends (nothing is counted then).
   */
  take(key: string, limit: number, windowMs: number): Promise<number>;
}
