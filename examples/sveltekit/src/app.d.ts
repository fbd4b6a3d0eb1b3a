// The types of event.locals that authHandle sets (user, session, auth()).
import type { AuthLocals } from '@framework/sveltekit';

declare global {
  namespace App {
    interface Locals extends AuthLocals {}
    interface Error {
      message: string;
      /** The kit's error code (UNAUTHENTICATED, FORBIDDEN, …) when a guard refused. */
      code?: string;
    }
  }
}

export {};
