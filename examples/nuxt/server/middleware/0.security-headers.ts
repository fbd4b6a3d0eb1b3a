// The page security headers on every response (Nitro serves the built assets before middleware, with their caching).
import { securityHeaders } from '@framework/nuxt';

export default securityHeaders();
