import { describe, expect, it } from 'vitest';
import { Tracker } from './tracker.js';

/** A promise with its settle functions. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('Tracker', () => {
  it('counts work until it settles, resolved or rejected, in any order', async () => {
    const tracker = new Tracker();
    const works = [deferred(), deferred(), deferred()];
    for (const work of works) tracker.track(work.promise).catch(() => undefined);
    expect(tracker.size).toBe(3);
    works[1]!.resolve();
    works[0]!.reject(new Error('failed'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(tracker.size).toBe(1);
    works[2]!.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(tracker.size).toBe(0);
  });

  it('settle waits for the work pending and for work started while it waits', async () => {
    const tracker = new Tracker();
    const first = deferred();
    const later = deferred();
    tracker.track(first.promise);
    let settled = false;
    const settling = tracker.settle().then((drained) => ((settled = true), drained));
    first.promise.then(() => tracker.track(later.promise));
    first.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    later.resolve();
    expect(await settling).toBe(true);
    expect(tracker.size).toBe(0);
  });

  it('settle resolves false at its deadline while work is still pending', async () => {
    const tracker = new Tracker();
    tracker.track(new Promise(() => {}));
    expect(await tracker.settle(Date.now() + 20)).toBe(false);
    expect(tracker.size).toBe(1);
  });

  it('settle keeps waiting for older work when the newest settles first, leaving the event loop free', async () => {
    const tracker = new Tracker();
    const older = deferred();
    const newer = deferred();
    tracker.track(older.promise);
    tracker.track(newer.promise);
    newer.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    let timerRan = false;
    let settledWhileTimerPending = false;
    setTimeout(() => {
      timerRan = true;
      older.resolve();
    }, 10);
    const drained = await tracker.settle(Date.now() + 5_000).then((result) => {
      settledWhileTimerPending = !timerRan;
      return result;
    });
    expect(drained).toBe(true);
    expect(settledWhileTimerPending).toBe(false);
  });
});
