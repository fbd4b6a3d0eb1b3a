/**
 * The account routes: signed-in devices, unlinking a sign-in method and
 * deleting the account. POSTs get the core's CSRF checks (policy `token`).
 * @internal
 * @module
 */
import type { Route } from '../../plugins/registry.js';
import { deleteAccountAction, deleteAccountLimit } from './delete.js';
import { listSessionsAction, revokeSessionAction } from './sessions.js';
import { unlinkAccountAction } from './unlink.js';
import { updateAccountAction } from '../../user-fields/update-route.js';

export const ACCOUNT_ROUTES: Readonly<Record<string, Route>> = {
  sessions: { GET: listSessionsAction },
  'sessions/revoke': { POST: revokeSessionAction },
  'account/unlink': { POST: unlinkAccountAction },
  'account/delete': { POST: deleteAccountAction, rateLimit: deleteAccountLimit },
  'account/update': { POST: updateAccountAction },
};
