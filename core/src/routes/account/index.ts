/**
 * The account routes as a plugin, registered after the sign-in routes: signed-in devices, unlinking a sign-in
 * method and deleting the account. POSTs get the CSRF checks (policy `token`).
 * @internal
 * @module
 */
import type { AuthPlugin } from '../../contract/types.js';
import { deleteAccountAction, deleteAccountLimit } from './delete.js';
import { listSessionsAction, revokeSessionAction } from './sessions.js';
import { unlinkAccountAction } from './unlink.js';

export const accountRoutes = (): AuthPlugin<'account'> => ({
  id: 'account',
  routes: {
    sessions: { GET: listSessionsAction },
    'sessions/revoke': { POST: revokeSessionAction },
    'account/unlink': { POST: unlinkAccountAction },
    'account/delete': { POST: deleteAccountAction, rateLimit: deleteAccountLimit },
  },
});
