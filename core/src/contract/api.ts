/**
 * The server API's contract: how a route is named on `auth.api` and what its body and answer are. Type-only.
 * @module
 */

/** A route on `auth.api`: its method and path under `basePath`, with its body and answer types. */
export interface ApiEndpoint<Body = void, Answer = unknown> {
  readonly method: 'GET' | 'POST';
  /** Under `basePath`, e.g. `two-factor/enable` (a `:provider` segment is filled from the call's `provider`). */
  readonly path: string;
  /** Types only; never set. */
  readonly types?: { body: Body; answer: Answer };
}

/** Options of an `auth.api` call. */
export interface ApiCallOptions {
  /**
   * The incoming request's headers (its `Cookie` above all): the call acts as that browser's session. Default none
   * (signed out).
   */
  headers?: HeadersInit;
  /** The client's IP address, for the route's rate limits. Default none (limits count per account only). */
  ip?: string;
  /** Query parameters (GET routes). */
  query?: Record<string, string>;
  /** The provider id of a `:provider` route (`signInCredentials` signs in with `credentials` by default). */
  provider?: string;
}

/** What a call gives with `returnHeaders: true`: the answer and the headers to forward (`Set-Cookie`). */
export interface ApiResult<Answer> {
  data: Answer;
  headers: Headers;
  status: number;
}

/** One `auth.api` method. It throws the route's `AuthError` (code, status, message) when the route refuses. */
export interface ApiMethod<Body, Answer> {
  (
    ...args: [Body] extends [void]
      ? [body?: undefined, options?: ApiCallOptions & { returnHeaders?: false }]
      : [body: Body, options?: ApiCallOptions & { returnHeaders?: false }]
  ): Promise<Answer>;
  (
    ...args: [Body] extends [void]
      ? [body: undefined, options: ApiCallOptions & { returnHeaders: true }]
      : [body: Body, options: ApiCallOptions & { returnHeaders: true }]
  ): Promise<ApiResult<Answer>>;
}

/** The methods of a record of endpoints. */
export type ApiMethods<E> = {
  [K in keyof E]: E[K] extends ApiEndpoint<infer B, infer A> ? ApiMethod<B, A> : never;
};
