import type { Config } from '@react-router/dev/config';

// Server rendering (framework mode). RR_OUT moves the build elsewhere: the
// tests build into .test-build/<id>/ so that builds never share a folder.
export default {
  ssr: true,
  buildDirectory: process.env.RR_OUT ?? 'build',
} satisfies Config;
