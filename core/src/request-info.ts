/**
 * What an adapter tells the core about a request beyond the Web `Request`: a type of its own, at the bottom of the
 * module graph, so the plugin contract can name it without importing `createAuth`.
 * @module
 */

/** Connection facts only an adapter knows. */
export interface RequestInfo {
  /** The client's IP address as seen on the socket (rate limits key on it). */
  ip?: string;
  /**
   * The request's own `Cookie` header, when the adapter can read it more cheaply than `request.headers` (on
   * @hono/node-server, from Node's `IncomingMessage`, which spares building the Web `Headers`). Omitted: read
   * from `request.headers`. Only the session reads use it.
   */
  cookie?: string | null;
}
