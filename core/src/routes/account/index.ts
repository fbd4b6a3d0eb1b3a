/**
 * The account routes as a plugin, registered after the sign-in routes: signed-in devices, unlinking a sign-in
 * method, updating the profile (name, image, custom fields) and deleting the account. POSTs get the CSRF checks (policy `token`).
 * @internal
 * @module
 */
import type { AuthPlugin } from '../../contract/types.js';
import { deleteAccountAction, deleteAccountLimit } from './delete.js';
import { listSessionsAction, revokeSessionAction } from './sessions.js';
import { unlinkAccountAction } from './unlink.js';
import { updateAccountAction } from '../../user-fields/update-route.js';

export const accountRoutes = (): AuthPlugin<'account'> => ({
  id: 'account',
  routes: {
    sessions: { GET: listSessionsAction },
    'sessions/revoke': { POST: revokeSessionAction },
    'account/unlink': { POST: unlinkAccountAction },
    'account/delete': { POST: deleteAccountAction, rateLimit: deleteAccountLimit },
    'account/update': { POST: updateAccountAction },
  },
});
