// The page security headers around everything, then the session of every request (Astro.locals.user / .session)
// and the answers to the guards' refusals.
import { sequence } from 'astro:middleware';
import { authMiddleware, securityHeaders } from '@framework/astro';
import { exampleAuth } from './example';

export const onRequest = sequence(securityHeaders(), authMiddleware(exampleAuth));
