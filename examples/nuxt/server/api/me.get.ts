// Signed out: 401 UNAUTHENTICATED as JSON.
import { defineEventHandler } from 'h3';
import { requireAuth } from '@framework/nuxt';

export default defineEventHandler(async (event) => {
  const user = await requireAuth(event, { throwError: true });
  return { id: user.id, email: user.email ?? null, name: user.name ?? null, role: user.role ?? null };
});
