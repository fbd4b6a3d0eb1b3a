/** The largest delay `setTimeout` accepts (about 24.8 days). */
const MAX_DELAY = 2_147_483_647;

/** A cancellable timer. */
export interface Timer {
  cancel(): void;
}

/**
 * Calls `fn` at `dueAt` (epoch ms), re-arming for delays beyond `setTimeout`'s
 * range. With `keepAlive: false` the timer does not keep the process alive.
 */
export function timerAt(dueAt: number, fn: () => void, keepAlive: boolean): Timer {
  let handle: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    const delay = Math.max(0, dueAt - Date.now());
    handle = setTimeout(delay > MAX_DELAY ? arm : fn, Math.min(delay, MAX_DELAY));
    if (!keepAlive) (handle as { unref?: () => void }).unref?.();
  };
  arm();
  return { cancel: () => clearTimeout(handle) };
}
