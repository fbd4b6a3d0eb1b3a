// Signed out: 401 UNAUTHENTICATED as JSON (authMiddleware answers what requireAuth throws).
import type { APIRoute } from 'astro';
import { requireAuth } from '@framework/astro';

export const GET: APIRoute = (context) => {
  const user = requireAuth(context, { throwError: true });
  return Response.json({ id: user.id, email: user.email ?? null, name: user.name ?? null, role: user.role ?? null });
};
