import type { ResolvedLimits } from '../limits.js';
import type { TriggerInstruments } from '../otel.js';
import type { TailHub } from '../tail.js';
import type { TraceParent } from '../trace.js';
import type { FleetLimits, StepStore } from '../engine/types.js';
import type { EngineClock } from '../engine/clock.js';
import type { StepHost } from './steps.js';
import type { CancelRegistry } from './cancels.js';
import type { SandboxPool } from '../sandbox/pool.js';
import type { Gate } from './gate.js';
import type { HealthMonitor } from './health.js';
import type { Logger } from './logger.js';
import type { RegisteredTrigger, Registry } from './registry.js';
import type { RunHub } from './runs.js';
import type { Tracker } from './tracker.js';
import type { RunLedger } from './run-ledger.js';

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
  /** Finished attempts, for `runtime.onRun` (e.g. a dashboard's run history). */
  readonly runs: RunHub;
  /** Where retries, step sleeps and wake-ups read the time (the real clock unless a test gives a fake one). */
  readonly clock: EngineClock;
  /** What `ctx.step` needs beyond a run's scope: waits for events, `invoke`, `sendEvent`, `cancelOn`. */
  readonly stepHost: StepHost;
  /** Where durable steps are kept (the engine's store, else process memory). */
  readonly steps: StepStore;
  /** Runs that outlived `timeout + gracePeriod`. */
  readonly health: HealthMonitor;
  /** Aborted when `stop()` reaches its deadline. */
  readonly stopSignal: AbortSignal;
  /** Attempts running in this process by run id (`runtime.cancel`). */
  readonly cancels: CancelRegistry;
  /** Slots shared by every instance (BullMQ); `undefined` on an engine whose limits hold per process. */
  readonly fleet: FleetLimits | undefined;
  /** Fixed-window counters of `config.throttle`: the engine's shared ones, else this process's. */
  readonly throttles: Pick<FleetLimits, 'take'>;
  /** Records what became of stored messages (runs) this process delivered. */
  readonly ledger: RunLedger;
  /** The concurrency gate of a trigger in this process. */
  gateOf(trigger: RegisteredTrigger): Gate;
  /** The worker threads of a sandboxed trigger in this process. */
  sandboxOf(trigger: RegisteredTrigger): SandboxPool;
  /** Sends `payload` to trigger `target`, continuing the trace at `from`. */
  emit(from: TraceParent | undefined, target: string, payload: unknown): Promise<void>;
}
