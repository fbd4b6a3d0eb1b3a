// The trigger runtime's webhooks (POST /webhooks/demo, Standard Webhooks signature over the raw body).
import { example } from '../../../lib/example';

export const dynamic = 'force-dynamic';

async function serve(request: Request): Promise<Response> {
  const { triggers } = await example();
  return (
    (await triggers.fetch(request)) ??
    Response.json({ error: { code: 'NOT_FOUND', message: 'No webhook at this path' } }, { status: 404 })
  );
}

export { serve as GET, serve as POST, serve as PUT, serve as PATCH, serve as DELETE };
