// The Edge-runtime first line: visitors without a session cookie never reach the guarded pages (302 to sign in, 401
// for API clients). The example keeps database sessions, so this only sees that a cookie is there; with
// `session: { strategy: 'jwt' }` pass `strategy: 'jwt'` and AUTH_SECRET to have the signature checked. The pages
// check again with requireAuth() / requireRole().
import { authMiddleware } from '@framework/next/middleware';

export default authMiddleware({ protect: ['/protected', '/admin'], strategy: 'database' });

export const config = { matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'] };
