// `noop`: an h3 middleware that does nothing (Nitro's own no-op); `protected`: authSession(auth) as shipped.
import { defineEventHandler } from 'h3';
import { authSession } from '@framework/nuxt';
import { benchAuth, benchMode } from '../../../bench-auth';

export default benchMode() === 'protected' ? authSession(benchAuth) : defineEventHandler(() => undefined);
