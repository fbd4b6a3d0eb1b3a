// A plain JavaScript config, imported by Node itself: no transpiler wraps it (no CommonJS `require` in scope).
if (typeof require !== 'undefined') throw new Error('plain.mjs went through a transpiler');

export const auth = {
  async migrate() {
    globalThis.frameworkCliPlainMigrations = (globalThis.frameworkCliPlainMigrations ?? 0) + 1;
  },
  adapter: {
    async close() {
      globalThis.frameworkCliPlainClosed = true;
    },
  },
};
