// The kit's routes under /auth: sign-up, sign-in, sign-out, the session, CSRF, the admin plugin's pages.
import { authEndpoint } from '@framework/astro';
import { exampleAuth } from '../../example';

export const { GET, POST, ALL } = authEndpoint(exampleAuth);
