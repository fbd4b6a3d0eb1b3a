/**
 * Conformance tests for database sessions.
 * @module
 * @internal
 */
import { expect, it } from 'vitest';
import { addUser, at, expectConflict, expectRejection, sampleSession, type CurrentAdapter } from './fixtures.js';

/** Declares the session tests. */
export function sessionTests(current: CurrentAdapter): void {
  it('createSession round-trips; getSessionAndUser joins the user', async () => {
    const user = await addUser(current(), { roles: ['r'] });
    const session = sampleSession(user.id, { tokenHash: 'f'.repeat(64), expires: at(999), createdAt: at(-1) });
    expect(await current().createSession(session)).toStrictEqual(session);
    expect(await current().getSessionAndUser(session.id)).toStrictEqual({ session, user });
  });

  it('getSessionAndUser returns expired sessions as they are, and null for unknown ids', async () => {
    const user = await addUser(current());
    const expired = await current().createSession(sampleSession(user.id, { expires: new Date(1) }));
    expect((await current().getSessionAndUser(expired.id))?.session).toStrictEqual(expired);
    expect(await current().getSessionAndUser('no-such-session')).toBeNull();
  });

  it('createSession rejects a taken id ("id") and an unknown user', async () => {
    const user = await addUser(current());
    const session = await current().createSession(sampleSession(user.id));
    await expectConflict(current().createSession(sampleSession(user.id, { id: session.id })), 'id');
    await expectRejection(current().createSession(sampleSession('no-such-user')));
  });

  it('updateSessionExpiry sets the expiry and returns the session; unknown id gives null', async () => {
    const user = await addUser(current());
    const session = await current().createSession(sampleSession(user.id));
    const expires = at(86_400_001);
    expect(await current().updateSessionExpiry(session.id, expires)).toStrictEqual({ ...session, expires });
    expect((await current().getSessionAndUser(session.id))?.session).toStrictEqual({ ...session, expires });
    expect(await current().updateSessionExpiry('no-such-session', expires)).toBeNull();
  });

  it('deleteSession removes one session; unknown ids are a no-op', async () => {
    const user = await addUser(current());
    const [gone, kept] = [await current().createSession(sampleSession(user.id)), await current().createSession(sampleSession(user.id))];
    await current().deleteSession(gone.id);
    await current().deleteSession(gone.id);
    expect(await current().getSessionAndUser(gone.id)).toBeNull();
    expect((await current().getSessionAndUser(kept.id))?.session).toStrictEqual(kept);
  });

  it('deleteUserSessions deletes every session of one user and counts them', async () => {
    const [a, b] = [await addUser(current()), await addUser(current())];
    await current().createSession(sampleSession(a.id));
    await current().createSession(sampleSession(a.id));
    const other = await current().createSession(sampleSession(b.id));
    expect(await current().deleteUserSessions(a.id)).toBe(2);
    expect(await current().deleteUserSessions(a.id)).toBe(0);
    expect(await current().deleteUserSessions('no-such-user')).toBe(0);
    expect((await current().getSessionAndUser(other.id))?.session).toStrictEqual(other);
  });

  it('deleteExpiredSessions deletes sessions expiring at or before now, and counts them', async () => {
    const user = await addUser(current());
    const before = await current().createSession(sampleSession(user.id, { expires: at(-1) }));
    const exactly = await current().createSession(sampleSession(user.id, { expires: at(0) }));
    const after = await current().createSession(sampleSession(user.id, { expires: at(1) }));
    expect(await current().deleteExpiredSessions(at(0))).toBe(2);
    expect(await current().getSessionAndUser(before.id)).toBeNull();
    expect(await current().getSessionAndUser(exactly.id)).toBeNull();
    expect((await current().getSessionAndUser(after.id))?.session).toStrictEqual(after);
    expect(await current().deleteExpiredSessions(at(0))).toBe(0);
  });
}
