// ESLint flat config: typescript-eslint's recommended rules over every
// package's sources, tests and scripts. Formatting is Prettier's job
// (.prettierrc.json), so no stylistic rules here.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/build/**',
      '**/.svelte-kit/**',
      '**/.react-router/**',
      '**/.astro/**',
      '**/.cache/**',
      '**/test-results/**',
      '**/.wrangler/**',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Adapters and tests cross untyped framework boundaries on purpose; each `any` is local.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // Plain JavaScript files are Node scripts and configs.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Scripts served to the browser.
    files: ['dashboard/assets/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
