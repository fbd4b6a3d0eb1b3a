/** One handler run that did not settle within `timeout + gracePeriod`. */
export interface UnsettledRun {
  trigger: string;
  traceId: string;
  attempt: number;
  /** When the attempt started. */
  startedAt: Date;
}

/** What `runtime.health()` reports. */
export interface RuntimeHealth {
  /**
   * `false` once a handler run outlived `timeout + gracePeriod`: JavaScript
   * cannot stop a function that ignores `ctx.signal`, so the process should be
   * restarted by its supervisor (liveness probe, process manager).
   */
  healthy: boolean;
  /** Runs that did not settle in time, oldest first (kept after they settle: the process stays unhealthy). */
  unsettled: UnsettledRun[];
}

/** Collects the runs that outlived their hard cap. */
export class HealthMonitor {
  private readonly runs: UnsettledRun[] = [];

  /** Records a run that did not settle within its cap. */
  unsettled(run: UnsettledRun): void {
    this.runs.push(run);
  }

  report(): RuntimeHealth {
    return { healthy: this.runs.length === 0, unsettled: this.runs.map((run) => ({ ...run })) };
  }
}
