import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WorkList, type Listed } from './work-list.js';

class Entry implements Listed<Entry> {
  previous: Entry | undefined = undefined;
  next: Entry | undefined = undefined;
  constructor(readonly n: number) {}
}

describe('WorkList', () => {
  it('holds exactly the entries added and not removed, newest first, whatever the order (model check)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 5 })), { maxLength: 80 }), (steps) => {
        const list = new WorkList<Entry>();
        const entries = Array.from({ length: 6 }, (_, n) => new Entry(n));
        const model: number[] = [];
        for (const [adding, n] of steps) {
          if (adding) {
            list.add(entries[n]!);
            if (!model.includes(n)) model.unshift(n);
          } else {
            list.remove(entries[n]!);
            if (model.includes(n)) model.splice(model.indexOf(n), 1);
          }
        }
        expect(list.entries().map((e) => e.n)).toEqual(model);
        expect(list.size).toBe(model.length);
      }),
    );
  });

  it('leaves an entry that is removed while the entries are walked out of what follows', () => {
    const list = new WorkList<Entry>();
    const [a, b, c] = [new Entry(0), new Entry(1), new Entry(2)];
    for (const entry of [a, b, c]) list.add(entry);
    for (const entry of list.entries()) list.remove(entry);
    expect(list.size).toBe(0);
    expect(list.entries()).toEqual([]);
    expect([a.previous, a.next, b.previous, b.next]).toEqual([undefined, undefined, undefined, undefined]);
  });
});
