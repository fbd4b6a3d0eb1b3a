/**
 * The order of `listUsers({ search })` results, shared by every adapter: by the matched key (the normalized
 * email or the lower-cased name, whichever matches and sorts first; the email on a tie), then by id, compared
 * by code point (byte order of UTF-8, as SQLite, MySQL's binary collation and PostgreSQL's `"C"` collation
 * compare). A search page's `next` cursor is the last user's key and id, so a page on SQL backends reads about
 * `limit` index entries in the searched key's index instead of sorting every match by id.
 * @module
 * @internal
 */

/** Where a search page continues: after the user with this key and id. */
export interface SearchCursor {
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

/** Orders two matches by key, then id. */
export function compareSearchMatches(a: SearchCursor, b: SearchCursor): number {
  return compareCodePoints(a.key, b.key) || compareCodePoints(a.id, b.id);
}

/** The `next` cursor after `last`: an opaque string (JSON of the key and id). */
export function encodeSearchCursor(last: SearchCursor): string {
  return JSON.stringify([last.key, last.id]);
}

/**
 * The cursor `after` names. A string that is not one of {@link encodeSearchCursor}'s (e.g. an id cursor from a
 * listing without search) continues after that key, so it never fails the request.
 */
export function decodeSearchCursor(after: string): SearchCursor {
  try {
    const value: unknown = JSON.parse(after);
    if (Array.isArray(value) && value.length === 2 && value.every((part) => typeof part === 'string'))
      return { key: value[0] as string, id: value[1] as string };
  } catch {
    // Not one of ours: below.
  }
  return { key: after, id: '' };
}

/**
 * The key `search` sorts a user by, given the user's normalized email and lower-cased name and how each is
 * matched, or undefined when neither matches.
 */
export function searchKey(
  email: string | null,
  name: string | null,
  matches: (text: string) => boolean,
): string | undefined {
  const byEmail = email !== null && matches(email) ? email : undefined;
  const byName = name !== null && matches(name) ? name : undefined;
  if (byEmail === undefined || byName === undefined) return byEmail ?? byName;
  return compareCodePoints(byName, byEmail) < 0 ? byName : byEmail;
}
