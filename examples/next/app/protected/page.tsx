import { requireAuth } from '../../lib/example';
import { postAdminNote } from '../admin/actions';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Protected' };

// middleware.ts sends visitors without a session cookie to /auth/signin?callbackUrl=%2Fprotected (302) before this
// renders; requireAuth() is the real check (a revoked or forged session redirects here too).
export default async function Protected() {
  const user = await requireAuth();
  return (
    <>
      <h1>Protected page</h1>
      <p>{`Only signed-in people see this. Hello, ${user.name ?? user.email ?? 'there'}.`}</p>
      {/* Anyone signed in sees this form; the action itself answers non-admins with 403. */}
      <form action={postAdminNote}>
        <label>
          Admin note <input name="note" required maxLength={200} />
        </label>
        <button type="submit">Post as admin</button>
      </form>
    </>
  );
}
