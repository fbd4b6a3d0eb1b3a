/**
 * `createAuth` composes the engine's parts (options, registry, session reader, internals, dispatch, server API) and
 * does no work of its own: its body stays within 80 lines, so new wiring goes into a part of its own.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const MAX_LINES = 80;

describe('createAuth', () => {
  it(`is at most ${MAX_LINES} lines, signature included`, () => {
    const source = readFileSync(new URL('./auth.ts', import.meta.url), 'utf8');
    const lines = source.split('\n');
    const start = lines.findIndex((line) => line.startsWith('export function createAuth<'));
    const end = lines.findIndex((line, i) => i > start && line === '}');
    expect(start).toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    expect(end - start + 1).toBeLessThanOrEqual(MAX_LINES);
  });
});
