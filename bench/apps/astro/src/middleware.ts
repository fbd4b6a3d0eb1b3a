// `noop`: Astro's own no-op middleware; `protected`: authMiddleware(auth) as shipped.
import type { MiddlewareHandler } from 'astro';
import { authMiddleware } from '@framework/astro';
import { benchAuth, benchMode } from '../../bench-auth';

const noop: MiddlewareHandler = (_context, next) => next();

export const onRequest: MiddlewareHandler = benchMode() === 'protected' ? authMiddleware(benchAuth) : noop;
