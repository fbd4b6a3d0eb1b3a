import { describe, expect, it } from 'vitest';
import { parseDuration } from './duration.js';

describe('parseDuration', () => {
  it.each([
    ['250ms', 250],
    ['30s', 30_000],
    ['1m', 60_000],
    ['2h', 7_200_000],
    ['1d', 86_400_000],
  ])('%s is %d ms', (input, ms) => expect(parseDuration(input)).toBe(ms));

  it.each([30, '30', '1.5s', '-1s', '1 m', '1w', '', null])('rejects %j', (input) => {
    expect(() => parseDuration(input, 'config.timeout')).toThrow(/^config\.timeout: /);
  });

  it('explains that a bare number needs a unit', () => {
    expect(() => parseDuration(30)).toThrow('got the number 30 (add a unit)');
  });
});
