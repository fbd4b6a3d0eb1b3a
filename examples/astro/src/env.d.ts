/// <reference types="astro/client" />

// The types of Astro.locals that authMiddleware sets (user, session).
type AuthLocals = import('@framework/astro').AuthLocals;

declare namespace App {
  interface Locals extends AuthLocals {}
}
