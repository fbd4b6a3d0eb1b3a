import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedBody } from './bounded-body.js';

describe('BoundedBody', () => {
  it('never holds more than its limit, and keeps the exact bytes of a body within it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4096 }),
        fc.array(fc.uint8Array({ maxLength: 512 }), { maxLength: 40 }),
        (limit, parts) => {
          const body = new BoundedBody(limit);
          let total = 0;
          for (const part of parts) {
            body.push(Buffer.from(part));
            total += part.length;
            expect(body.held).toBeLessThanOrEqual(limit);
            expect(body.received).toBe(total);
          }
          expect(body.exceeded).toBe(total > limit);
          if (total <= limit) expect(body.concat()).toEqual(Buffer.concat(parts.map((p) => Buffer.from(p))));
          else expect(body.held).toBe(0);
        },
      ),
    );
  });

  it('drops what it kept on the chunk that crosses the limit and keeps nothing after it', () => {
    const body = new BoundedBody(10);
    body.push(Buffer.alloc(8));
    expect(body.held).toBe(8);
    body.push(Buffer.alloc(3));
    expect(body).toMatchObject({ held: 0, received: 11, exceeded: true });
    for (let i = 0; i < 1000; i++) body.push(Buffer.alloc(1024));
    expect(body).toMatchObject({ held: 0, received: 11 + 1024 * 1000 });
  });
});
