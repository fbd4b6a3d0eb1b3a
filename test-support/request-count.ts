/**
 * Counts the Web `Request`s built through the global `Request` while it is installed, for tests asserting that an
 * adapter's session read builds none (undici's own `fetch` keeps its internal class, so a test client is not counted).
 */
export function countRequests(): { readonly built: number; reset(): void; restore(): void } {
  const Original = globalThis.Request;
  let built = 0;
  class Counted extends Original {
    constructor(...args: ConstructorParameters<typeof Request>) {
      super(...args);
      built++;
    }
  }
  globalThis.Request = Counted;
  return {
    get built() {
      return built;
    },
    reset: () => void (built = 0),
    restore: () => void (globalThis.Request = Original),
  };
}
