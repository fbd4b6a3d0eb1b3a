import type { Config } from '@react-router/dev/config';

// The React Router bench app: server rendering, build under build/. Middleware on (v8_middleware), so the
// baseline is React Router's own no-op middleware.
export default {
  ssr: true,
  buildDirectory: 'build',
  future: {
    v8_middleware: true,
    v8_splitRouteModules: false,
    v8_viteEnvironmentApi: false,
    v8_passThroughRequests: false,
    v8_trailingSlashAwareDataRequests: false,
  },
} satisfies Config;
