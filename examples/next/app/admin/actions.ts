'use server';
// A role-guarded Server Action: requireRole runs again on every call (an action is a public POST endpoint, whatever
// page shows its form). Without the role: 403 (forbidden()), never a redirect.
import { revalidatePath } from 'next/cache';
import { ADMIN_ROLE, requireRole } from '../../lib/example';

const notes: { text: string; by: string }[] = [];

/** The notes admins posted since the server started (newest first). */
export async function adminNotes(): Promise<readonly { text: string; by: string }[]> {
  await requireRole(ADMIN_ROLE);
  return notes;
}

export async function postAdminNote(form: FormData): Promise<void> {
  const admin = await requireRole(ADMIN_ROLE);
  const text = String(form.get('note') ?? '')
    .trim()
    .slice(0, 200);
  if (text) notes.unshift({ text, by: admin.email ?? admin.id });
  revalidatePath('/admin');
}
