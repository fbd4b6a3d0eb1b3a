/**
 * Who may open the dashboard. Development: clients on this machine only.
 * Production: a signed-in user holding the role (default `admin`) or the
 * permission, checked server-side through `@framework/auth`; never an API key
 * session unless `allowApiKeys`.
 * @module
 */
import { checkRole, isPluginCredential, type Auth, type AuthScope, type RBAC } from '@framework/auth';
import { isLocalRequest } from './loopback.js';

/** The parts of an `Auth` the dashboard uses. */
export type DashboardAuth = Pick<Auth, 'run' | 'config'> &
  Partial<Pick<Auth, 'adapter' | 'extensions' | 'rateLimitRefusals'>>;

/** How access is decided. */
export interface AccessPolicy {
  mode: 'development' | 'production';
  auth?: DashboardAuth | undefined;
  /** Any of these roles grants access (production). */
  role: string | readonly string[];
  /** When set, any of these permissions grants access instead of the role. */
  permission?: string | readonly string[] | undefined;
  /**
   * Whether a session read from an API key (any credential an auth plugin reads per request) may open it (production).
   * Default false: 403 `API_KEY_NOT_ALLOWED`. Even then the key must pass the role check, which a restricted key
   * passes only for a role whose full permission set it holds or that it was granted explicitly.
   */
  allowApiKeys?: boolean | undefined;
}

/** The outcome: allowed (with Set-Cookie headers of a refreshed session), or refused with a status and stable code. */
export type AccessDecision =
  | { allowed: true; headers: Headers }
  | {
      allowed: false;
      status: 401 | 403;
      code: 'UNAUTHENTICATED' | 'FORBIDDEN' | 'API_KEY_NOT_ALLOWED';
      message: string;
      signIn?: string;
      headers: Headers;
    };

/** Decides access for a request whose socket peer is `ip` (given by the adapter). Never rejects. */
export async function decideAccess(
  request: Request,
  ip: string | undefined,
  policy: AccessPolicy,
): Promise<AccessDecision> {
  if (policy.mode === 'development') {
    if (isLocalRequest(request, ip)) return { allowed: true, headers: new Headers() };
    return refuse(403, 'FORBIDDEN', 'In development the dashboard is open only to clients on this machine.');
  }
  const auth = policy.auth;
  if (!auth) return refuse(403, 'FORBIDDEN', 'The dashboard needs `auth` in production.');
  let outcome: { user: boolean; key: boolean; granted: boolean; headers: Headers };
  try {
    // The request scope carries the session (read as getSession does) and the RBAC definitions.
    outcome = await auth.run(request, (scope) => ({
      user: scope.user !== null,
      key: isPluginCredential(scope.session) || isPluginCredential(scope.user),
      granted: holds(scope, policy),
      headers: scope.headers,
    }));
  } catch {
    return refuse(401, 'UNAUTHENTICATED', 'Sign in to open the dashboard.', auth.config.pages.signIn);
  }
  const { granted, headers } = outcome;
  if (!outcome.user)
    return refuse(401, 'UNAUTHENTICATED', 'Sign in to open the dashboard.', auth.config.pages.signIn, headers);
  // The dashboard shows sign-ins, IPs and the audit log: for people signed in at a browser, not for scripts' keys.
  if (outcome.key && !policy.allowApiKeys)
    return refuse(
      403,
      'API_KEY_NOT_ALLOWED',
      'The dashboard cannot be opened with an API key; sign in.',
      undefined,
      headers,
    );
  if (granted) return { allowed: true, headers };
  return refuse(403, 'FORBIDDEN', 'Your account may not open the dashboard.', undefined, headers);
}

/** Whether the scope's user holds the policy's permission or role; false without role definitions (fail closed). */
function holds(scope: AuthScope, policy: AccessPolicy): boolean {
  try {
    const rbac = scope.extensions.rbac as RBAC | undefined;
    if (policy.permission !== undefined) return rbac !== undefined && rbac.hasPermission(scope.user, policy.permission);
    return checkRole(rbac, scope.user, policy.role) === null;
  } catch {
    return false;
  }
}

function refuse(
  status: 401 | 403,
  code: 'UNAUTHENTICATED' | 'FORBIDDEN' | 'API_KEY_NOT_ALLOWED',
  message: string,
  signIn?: string,
  headers = new Headers(),
): AccessDecision {
  return { allowed: false, status, code, message, ...(signIn ? { signIn } : {}), headers };
}
