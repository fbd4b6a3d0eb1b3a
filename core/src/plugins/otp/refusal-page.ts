/**
 * The no-JS pages of code sign-ins: a refused POST (4xx) from a browser shows its page again with the message.
 * @module
 */
import { AuthError, type Action, type ActionResult, type RouteContext } from '../../plugin-kit.js';

/**
 * `action`, except that a browser's 4xx `AuthError` answers `reshow(ctx, message)` with the error's status; JSON
 * clients and 5xx errors get the error as thrown.
 */
export function withRefusalPage(
  action: Action,
  reshow: (ctx: RouteContext, message: string) => Promise<ActionResult>,
): Action {
  return async (ctx) => {
    try {
      return await action(ctx);
    } catch (error) {
      if (ctx.wantsJson || !(error instanceof AuthError) || error.status >= 500) throw error;
      return { ...(await reshow(ctx, error.message)), status: error.status };
    }
  };
}
