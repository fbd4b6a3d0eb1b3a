/**
 * The no-JS pages of code sign-ins: a refused POST (4xx) from a browser shows its page again with the message.
 * @module
 */
import {
  AuthError,
  errorMessageFor,
  type Action,
  type ActionResult,
  type MessageCatalog,
  type RouteContext,
} from '../../plugin-kit.js';
import { otpMessages } from './messages.js';

/**
 * `action`, except that a browser's 4xx `AuthError` answers `reshow(ctx, message)` with the error's status (the
 * message in the page's language: the `code.<CODE>` message of `catalogs` or the OTP catalog, see `errorMessageFor`); JSON
 * clients and 5xx errors get the error as thrown.
 */
export function withRefusalPage(
  action: Action,
  reshow: (ctx: RouteContext, message: string) => Promise<ActionResult>,
  catalogs: readonly Pick<MessageCatalog<string>, 'catalogs'>[] = [],
): Action {
  return async (ctx) => {
    try {
      return await action(ctx);
    } catch (error) {
      if (ctx.wantsJson || !(error instanceof AuthError) || error.status >= 500) throw error;
      return { ...(await reshow(ctx, errorMessageFor(ctx, error, ...catalogs, otpMessages))), status: error.status };
    }
  };
}
