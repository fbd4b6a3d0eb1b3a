/**
 * Conformance tests for `purgeExpired`: expired sessions and verification
 * tokens go, live rows stay, and the counts are right.
 * @module
 * @internal
 */
import { expect, it } from 'vitest';
import type { PurgeResult } from '../types.js';
import { addUser, at, sampleSession, unique, type CurrentAdapter } from './fixtures.js';

/** `result` with `more` as false when absent (an adapter that deletes in one go may leave it out). */
const finished = (result: PurgeResult): PurgeResult => ({ ...result, more: result.more ?? false });

const token = (expires: Date) => ({ identifier: `${unique('purge')}@example.com`, tokenHash: 'e'.repeat(64), expires });

/** Declares the purge tests. */
export function purgeTests(current: CurrentAdapter): void {
  it('purgeExpired deletes sessions and verification tokens expiring at or before now, and counts them', async () => {
    const a = current();
    const user = await addUser(a);
    const sessions = [at(-1), at(0), at(1)].map((expires) => sampleSession(user.id, { expires }));
    for (const s of sessions) await a.createSession(s);
    const tokens = [at(-60_000), at(0), at(1)].map(token);
    for (const t of tokens) await a.createVerificationToken(t);

    expect(finished(await a.purgeExpired(at(0)))).toStrictEqual({ sessions: 2, verificationTokens: 2, more: false });
    expect(await a.getSessionAndUser(sessions[0]!.id)).toBeNull();
    expect(await a.getSessionAndUser(sessions[1]!.id)).toBeNull();
    expect((await a.getSessionAndUser(sessions[2]!.id))?.session).toStrictEqual(sessions[2]);
    expect(await a.useVerificationToken(tokens[0]!)).toBeNull();
    expect(await a.useVerificationToken(tokens[1]!)).toBeNull();
    expect(finished(await a.purgeExpired(at(0)))).toStrictEqual({ sessions: 0, verificationTokens: 0, more: false });
    expect(await a.useVerificationToken(tokens[2]!)).toStrictEqual(tokens[2]);
  });

  it('purgeExpired() without an argument uses the current time', async () => {
    const a = current();
    const user = await addUser(a);
    const now = Date.now();
    const past = await a.createSession(sampleSession(user.id, { expires: new Date(now - 1000) }));
    const future = await a.createSession(sampleSession(user.id, { expires: new Date(now + 3_600_000) }));
    const pastToken = await a.createVerificationToken(token(new Date(now - 1000)));
    const futureToken = await a.createVerificationToken(token(new Date(now + 3_600_000)));
    expect(finished(await a.purgeExpired())).toStrictEqual({ sessions: 1, verificationTokens: 1, more: false });
    expect(await a.getSessionAndUser(past.id)).toBeNull();
    expect((await a.getSessionAndUser(future.id))?.session).toStrictEqual(future);
    expect(await a.useVerificationToken(pastToken)).toBeNull();
    expect(await a.useVerificationToken(futureToken)).toStrictEqual(futureToken);
  });

  it('purgeExpired with a batch size of 1 and no time budget still deletes everything expired', async () => {
    const a = current();
    const user = await addUser(a);
    const sessions = [at(-3), at(-2), at(-1), at(1)].map((expires) => sampleSession(user.id, { expires }));
    for (const s of sessions) await a.createSession(s);
    for (const expires of [at(-2), at(-1), at(1)]) await a.createVerificationToken(token(expires));
    expect(finished(await a.purgeExpired(at(0), { batchSize: 1 }))).toStrictEqual({
      sessions: 3,
      verificationTokens: 2,
      more: false,
    });
    expect((await a.getSessionAndUser(sessions[3]!.id))?.session).toStrictEqual(sessions[3]);
  });

  it('purgeExpired with a spent budget makes progress on every call and ends with more: false', async () => {
    const a = current();
    const user = await addUser(a);
    for (const expires of [at(-3), at(-2), at(-1)]) await a.createSession(sampleSession(user.id, { expires }));
    await a.createVerificationToken(token(at(-1)));
    const total = { sessions: 0, verificationTokens: 0 };
    for (let call = 1; ; call++) {
      expect(call).toBeLessThanOrEqual(10);
      const result = await a.purgeExpired(at(0), { batchSize: 1, budgetMs: 0 });
      total.sessions += result.sessions;
      total.verificationTokens += result.verificationTokens;
      if (!result.more) break;
    }
    expect(total).toStrictEqual({ sessions: 3, verificationTokens: 1 });
    expect(finished(await a.purgeExpired(at(0)))).toStrictEqual({ sessions: 0, verificationTokens: 0, more: false });
  });

  it('purgeExpired refuses a malformed batch size or budget with a TypeError', async () => {
    const a = current();
    for (const batchSize of [0, -1, 1.5, 10_001, Number.NaN])
      await expect(a.purgeExpired(at(0), { batchSize })).rejects.toThrow(TypeError);
    for (const budgetMs of [-1, Number.NaN])
      await expect(a.purgeExpired(at(0), { budgetMs })).rejects.toThrow(TypeError);
  });
}
