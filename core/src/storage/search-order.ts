/**
 * The order of `listUsers({ search })` results, shared by every adapter. Where a backend matches anywhere in the
 * email or name (PostgreSQL with `pg_trgm`, the memory adapter), prefix matches come first: phase 1 holds the
 * users whose normalized email or lower-cased name starts with the search, phase 2 the users matching it only
 * inside both (neither starts with it). Backends matching by prefix only have phase 1 alone. Within a phase, by
 * the matched key (the normalized email or the lower-cased name, whichever matches in that phase and sorts
 * first; the email on a tie), then by id, compared by code point (byte order of UTF-8, as SQLite, MySQL's binary
 * collation and PostgreSQL's `"C"` collation compare). A search page's `next` cursor is the last user's phase,
 * key and id, so a page on SQL backends reads about `limit` index entries in the searched key's index instead
 * of sorting every match by id.
 * @module
 * @internal
 */

/** 1: the email or name starts with the search; 2: it holds the search, but neither starts with it. */
export type SearchPhase = 1 | 2;

/** Where a search page continues: after the user with this phase, key and id. */
export interface SearchCursor {
  phase: SearchPhase;
  key: string;
  id: string;
}

/** `-1`, `0` or `1` as `a` sorts before, with or after `b` by code point. */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  for (;;) {
    const x = left.next();
    const y = right.next();
    if (x.done || y.done) return x.done ? (y.done ? 0 : -1) : 1;
    const cx = x.value.codePointAt(0)!;
    const cy = y.value.codePointAt(0)!;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

/** Orders two matches by phase, then key, then id. */
export function compareSearchMatches(a: SearchCursor, b: SearchCursor): number {
  return a.phase - b.phase || compareCodePoints(a.key, b.key) || compareCodePoints(a.id, b.id);
}

/**
 * The `next` cursor after `last`: an opaque string, JSON of the key and id, with the phase after them in phase 2
 * (`["ann@x.test","u4"]`, `["joanna@x.test","u9",2]`).
 */
export function encodeSearchCursor(last: SearchCursor): string {
  return JSON.stringify(last.phase === 1 ? [last.key, last.id] : [last.key, last.id, last.phase]);
}

/**
 * The cursor `after` names. A string that is not one of {@link encodeSearchCursor}'s (e.g. an id cursor from a
 * listing without search) continues after that key in phase 1, so it never fails the request.
 */
export function decodeSearchCursor(after: string): SearchCursor {
  try {
    const value: unknown = JSON.parse(after);
    if (Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string') {
      if (value.length === 2) return { phase: 1, key: value[0], id: value[1] };
      if (value.length === 3 && value[2] === 2) return { phase: 2, key: value[0], id: value[1] };
    }
  } catch {
    // Not one of ours: below.
  }
  return { phase: 1, key: after, id: '' };
}

/**
 * Where `search` (trimmed and lower-cased) sorts a user, given the user's normalized email and lower-cased name:
 * phase 1 and the smaller key starting with the search, else (with `anywhere`) phase 2 and the smaller key
 * holding it, else undefined (no match).
 * @example
 * ```ts
 * searchMatch('joanna@x.test', 'ann lee', 'ann', true); // { phase: 1, key: 'ann lee' }
 * searchMatch('joanna@x.test', 'zed', 'ann', true); // { phase: 2, key: 'joanna@x.test' }
 * searchMatch('joanna@x.test', 'zed', 'ann', false); // undefined
 * ```
 */
export function searchMatch(
  email: string | null,
  name: string | null,
  search: string,
  anywhere: boolean,
): { phase: SearchPhase; key: string } | undefined {
  const prefix = smaller(email, name, (text) => text.startsWith(search));
  if (prefix !== undefined) return { phase: 1, key: prefix };
  const inside = anywhere ? smaller(email, name, (text) => text.includes(search)) : undefined;
  return inside === undefined ? undefined : { phase: 2, key: inside };
}

/** The smaller by code point of `email` and `name` that `matches` (the email on a tie), or undefined. */
function smaller(email: string | null, name: string | null, matches: (text: string) => boolean): string | undefined {
  const byEmail = email !== null && matches(email) ? email : undefined;
  const byName = name !== null && matches(name) ? name : undefined;
  if (byEmail === undefined || byName === undefined) return byEmail ?? byName;
  return compareCodePoints(byName, byEmail) < 0 ? byName : byEmail;
}
