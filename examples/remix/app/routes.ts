import { index, route, type RouteConfig } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  route('protected', 'routes/protected.tsx'),
  route('admin', 'routes/admin.tsx'),
  route('api/me', 'routes/api.me.ts'),
  // Resource routes: the kit's auth routes and the trigger runtime's webhooks.
  route('auth/*', 'routes/auth.$.ts'),
  route('webhooks/*', 'routes/webhooks.$.ts'),
] satisfies RouteConfig;
