// Signed out: 401 with the kit's {error: {code, message}}. API keys (Authorization: Bearer, X-API-Key) count.
import { withSecurityHeaders } from '@framework/auth';
import { requireAuth, withAuth } from '../../../lib/example';

export const dynamic = 'force-dynamic';

export const GET = withAuth(async () => {
  const user = await requireAuth({ throwError: true });
  return withSecurityHeaders(
    Response.json({ id: user.id, email: user.email ?? null, name: user.name ?? null, role: user.role ?? null }),
  );
});
