/**
 * Hostile characters for the route tests of `input/`: one of each class `input/text.ts` refuses, and the values
 * built from them (at an edge and inside). Test-only.
 * @internal
 * @module
 */

/** One character of each refused class, with a label for test names. */
export const HOSTILE_CHARACTERS: ReadonlyArray<readonly [label: string, char: string]> = [
  ['NUL', '\0'],
  ['DEL', '\x7F'],
  ['C1 NEL', '\x85'],
  ['RLO U+202E', '\u202E'],
  ['RLI U+2067', '\u2067'],
  ['RLM U+200F', '\u200F'],
  ['ALM U+061C', '\u061C'],
  ['ZWSP U+200B', '\u200B'],
  ['ZWJ U+200D', '\u200D'],
  ['word joiner U+2060', '\u2060'],
  ['BOM U+FEFF', '\uFEFF'],
  ['line separator U+2028', '\u2028'],
  ['paragraph separator U+2029', '\u2029'],
  ['soft hyphen U+00AD', '\u00AD'],
  ['Hangul filler U+3164', '\u3164'],
  ['tag U+E0041', '\u{E0041}'],
  ['private use U+E000', '\uE000'],
  ['lone surrogate', '\uD800'],
];

/** Addresses carrying `char` in the local part, in the domain and at both edges. */
export const hostileAddresses = (char: string): string[] => [
  `ada${char}@example.com`,
  `ada@exam${char}ple.com`,
  `${char}ada@example.com`,
  `ada@example.com${char}`,
];

/** Names carrying `char` inside and at both edges. */
export const hostileNames = (char: string): string[] => [`Ada${char} Lovelace`, `${char}Ada`, `Ada${char}`];
