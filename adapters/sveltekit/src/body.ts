/**
 * Unread request bodies.
 * @internal
 * @module
 */

/**
 * Reads and drops a body the handler left unread (a 413 decided from
 * `Content-Length`, a 405). adapter-node pauses the Node request until its
 * Web stream is read, so an unread body would hold a kept-alive connection
 * until it times out; draining it in the background frees the connection
 * for the next request without delaying this response.
 */
export function releaseBody(request: Request): void {
  if (!request.body || request.bodyUsed || request.body.locked) return;
  void request.body.pipeTo(new WritableStream()).catch(() => {});
}
