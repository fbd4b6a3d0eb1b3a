import { ADMIN_ROLE, requireRole } from '../../lib/example';
import { adminNotes, postAdminNote } from './actions';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Admin' };

// Signed out: the middleware's 302 to sign in. Signed in without the role: 403 with app/forbidden.tsx.
export default async function Admin() {
  const admin = await requireRole(ADMIN_ROLE);
  const notes = await adminNotes();
  return (
    <>
      <h1>Admin</h1>
      <p>
        Role: <strong id="role">{ADMIN_ROLE}</strong> ({admin.email})
      </p>
      <form action={postAdminNote}>
        <label>
          Note <input name="note" required maxLength={200} />
        </label>
        <button type="submit">Post note</button>
      </form>
      <ul id="notes">
        {notes.map((note, index) => (
          <li key={index}>{`${note.text} (${note.by})`}</li>
        ))}
      </ul>
    </>
  );
}
