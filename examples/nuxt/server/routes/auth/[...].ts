// The kit's routes under /auth: sign-up, sign-in, sign-out, the session, CSRF, the admin plugin's pages.
import { authHandler } from '@framework/nuxt';
import { exampleAuth } from '../../utils/example';

export default authHandler(exampleAuth);
