// `noop`: a handle hook that only resolves; `protected`: authHandle(auth) as shipped (no request scope by default).
import type { Handle } from '@sveltejs/kit';
import { authHandle } from '@framework/sveltekit';
import { benchAuth, benchMode } from '../../bench-auth';

const noop: Handle = ({ event, resolve }) => resolve(event);

// `building` is false: the bench app prerenders nothing.
export const handle: Handle = benchMode() === 'protected' ? authHandle(benchAuth, { building: false }) : noop;
