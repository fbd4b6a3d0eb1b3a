import type { Config } from '@react-router/dev/config';

// Server rendering (framework mode). RR_OUT moves the build elsewhere: the
// tests build into .test-build/<id>/ so that builds never share a folder.
export default {
  ssr: true,
  buildDirectory: process.env.RR_OUT ?? 'build',
  // React Router 7's behaviour, chosen explicitly (so the build prints no future-flag notices):
  // @framework/remix reads `context.ip` from a plain load context, which v8_middleware would replace.
  future: {
    v8_middleware: false,
    v8_splitRouteModules: false,
    v8_viteEnvironmentApi: false,
    v8_passThroughRequests: false,
    v8_trailingSlashAwareDataRequests: false,
  },
} satisfies Config;
