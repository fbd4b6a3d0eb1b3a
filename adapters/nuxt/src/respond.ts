/**
 * Answering a request from inside a route with a Web `Response`, then stopping the route.
 * @internal
 * @module
 */
import type { H3Event } from 'h3';
import { createError, sendWebResponse } from 'h3';

/**
 * Sends `response` (status, headers, every Set-Cookie appended to those already queued on the event, the body
 * streamed), then throws an h3 error with the same status so the caller stops. h3 and Nuxt's error handlers see
 * the event as handled and send nothing more.
 * @throws H3Error always, with `data: {answered: true}`.
 */
export async function answer(event: H3Event, response: Response): Promise<never> {
  await sendWebResponse(event, response);
  throw createError({ statusCode: response.status, message: 'Answered by @framework/nuxt', data: { answered: true } });
}
