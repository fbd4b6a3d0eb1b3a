/**
 * `finalErrorHandler()`: the last error handler of an app, which never shows
 * a stack trace to the client.
 * @module
 */
import type { ErrorRequestHandler } from 'express';
import { clientErrorOf } from '@framework/auth';

/** Options of {@link finalErrorHandler}. */
export interface FinalErrorHandlerOptions {
  /**
   * Where server errors (5xx) are logged, with their stack. Default `console.error`. Client errors (4xx) are
   * not logged.
   */
  log?: (error: unknown) => void;
}

/**
 * An Express error handler for the end of the chain, after
 * `authErrorHandler`: answers `{error: {code, message}}` (JSON when the
 * client accepts it, plain text otherwise) with the error's 4xx status (as
 * `http-errors` and the body parsers set it: 413 `PAYLOAD_TOO_LARGE` for
 * `express.urlencoded`'s limit, 400 `INVALID_REQUEST` for malformed JSON) or
 * 500 `INTERNAL_ERROR`. The message is a fixed phrase per status: never the
 * error's message or `err.stack`, whatever `NODE_ENV` says (Express's own
 * final handler prints the stack outside production). When the response has
 * started, the connection is closed instead.
 *
 * @param options {@link FinalErrorHandlerOptions}: `log` for 5xx errors.
 * @example
 * ```ts
 * app.use(authErrorHandler(auth));
 * app.use(finalErrorHandler());
 * ```
 */
export function finalErrorHandler(options: FinalErrorHandlerOptions = {}): ErrorRequestHandler {
  const log = options.log ?? ((error: unknown) => console.error(error));
  return (error, req, res, _next) => {
    const { status, code, message } = clientErrorOf(error);
    if (status >= 500) log(error);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(status).set('cache-control', 'no-store').set('x-content-type-options', 'nosniff');
    if (req.accepts(['text/plain', 'application/json']) === 'application/json') res.json({ error: { code, message } });
    else res.type('text/plain').send(`${status} ${code}: ${message}`);
  };
}
