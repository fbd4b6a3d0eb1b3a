/**
 * Refusing option keys a factory does not know, with the nearest known key as a hint: a typo such as `sesion`
 * would otherwise be ignored and the default used in silence.
 * @module
 * @internal
 */
import { AuthConfigError } from '../errors.js';

/** Levenshtein distance between `a` and `b` (insertions, deletions and substitutions cost 1). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, substitution));
    }
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * The known key closest to `key`, when it is close enough to be a typo: at most a third of its length away
 * (at least 1, at most 3 edits), compared case-insensitively.
 */
export function nearestKey(key: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  const limit = Math.min(3, Math.max(1, Math.floor(key.length / 3)));
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return bestDistance <= limit ? best : undefined;
}

/**
 * Throws for the first own key of `options` that is not in `known`.
 * @throws AuthConfigError (`INVALID_CONFIG`): `<where>: unknown option "sesion" — did you mean "session"?`
 * @example
 * ```ts
 * rejectUnknownKeys(options, CREATE_AUTH_KEYS, 'Invalid auth config');
 * ```
 */
export function rejectUnknownKeys(options: object, known: ReadonlySet<string>, where: string): void {
  for (const key of Object.keys(options)) {
    if (known.has(key)) continue;
    const hint = nearestKey(key, known);
    throw new AuthConfigError(
      `${where}: unknown option ${JSON.stringify(key)}${hint ? ` — did you mean ${JSON.stringify(hint)}?` : ` (known options: ${[...known].join(', ')})`}`,
    );
  }
}
