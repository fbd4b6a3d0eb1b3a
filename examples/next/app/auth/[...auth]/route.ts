// Every route under /auth: sign-up and sign-in pages, callbacks, session, sign-out, CSRF, API keys.
import { authRoute } from '@framework/next';
import { auth, clientIp } from '../../../lib/example';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = authRoute(auth, { clientIp });
