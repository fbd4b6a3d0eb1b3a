import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from 'cookie';
import { readCookie } from './cookies.js';

const NAME = 'framework.session-token';

/** Cookie headers built from the pieces that make parsing hard: separators, blanks, '%', the name and near misses. */
const header = fc
  .array(
    fc.oneof(
      fc.constantFrom(';', '=', ' ', '\t', '%', '%20', '%E0%A4%A', '"', ',', 'a', 'x'),
      fc.constantFrom(NAME, `${NAME}=`, ` ${NAME} = `, `x${NAME}`, `${NAME}x`, 'framework.session', `; ${NAME}=`),
      fc.string({ maxLength: 6 }),
    ),
    { maxLength: 16 },
  )
  .map((parts) => parts.join(''));

describe('readCookie', () => {
  it('reads what the cookie package parses, for any header', () => {
    fc.assert(
      fc.property(header, (h) => {
        expect(readCookie(h, NAME)).toBe(parse(h)[NAME]);
      }),
      { numRuns: 20_000 },
    );
  });

  it('reads any name the same way', () => {
    fc.assert(
      fc.property(header, fc.constantFrom('', 'a', 'x', 'a b', '=', ';', NAME, '%20'), (h, name) => {
        expect(readCookie(h, name)).toBe(parse(h)[name]);
      }),
      { numRuns: 5_000 },
    );
  });

  it('takes the first of repeated names, trims blanks and decodes', () => {
    expect(readCookie(`a=1; ${NAME}=first; ${NAME}=second`, NAME)).toBe('first');
    expect(readCookie(`x${NAME}=no; ${NAME} =\t yes `, NAME)).toBe('yes');
    expect(readCookie(`${NAME}=a%20b`, NAME)).toBe('a b');
    expect(readCookie(`${NAME}=%E0%A4%A`, NAME)).toBe('%E0%A4%A');
    expect(readCookie(`${NAME}; other=1`, NAME)).toBeUndefined();
    expect(readCookie(null, NAME)).toBeUndefined();
    expect(readCookie('=', '')).toBe(parse('=')['']);
  });
});
