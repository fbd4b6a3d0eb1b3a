import type { ResolvedLimits } from '../limits.js';
import type { TriggerInstruments } from '../otel.js';
import type { TailHub } from '../tail.js';
import type { TraceParent } from '../trace.js';
import type { Logger } from './logger.js';
import type { Registry } from './registry.js';
import type { Tracker } from './tracker.js';

/** The shared internals every part of a runtime works with. */
export interface RuntimeCore {
  readonly name: string;
  readonly env: unknown;
  readonly limits: ResolvedLimits;
  readonly registry: Registry;
  readonly instruments: TriggerInstruments;
  readonly logger: Logger;
  readonly tracker: Tracker;
  readonly tail: TailHub;
  /** Aborted when `stop()` reaches its deadline. */
  readonly stopSignal: AbortSignal;
  /** Sends `payload` to trigger `target`, continuing the trace at `from`. */
  emit(from: TraceParent | undefined, target: string, payload: unknown): Promise<void>;
}
