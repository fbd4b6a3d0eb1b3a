/** The largest delay `setTimeout` accepts (about 24.8 days). */
const MAX_DELAY = 2_147_483_647;

/** A cancellable timer. */
export interface Timer {
  cancel(): void;
}

/**
 * Calls `fn` at `dueAt` (epoch ms), never before: a timeout that fires early by `Date.now()` (Node's timers count
 * from the event loop's cached time, which lags behind after a long synchronous task) is re-armed for the rest, as
 * is a delay beyond `setTimeout`'s range. With `keepAlive: false` the timer does not keep the process alive.
 */
export function timerAt(dueAt: number, fn: () => void, keepAlive: boolean): Timer {
  let handle: ReturnType<typeof setTimeout> | undefined;
  const fire = () => (Date.now() < dueAt ? arm() : fn());
  const arm = () => {
    const delay = Math.max(0, dueAt - Date.now());
    handle = setTimeout(fire, Math.min(delay, MAX_DELAY));
    if (!keepAlive) (handle as { unref?: () => void }).unref?.();
  };
  arm();
  return { cancel: () => clearTimeout(handle) };
}
