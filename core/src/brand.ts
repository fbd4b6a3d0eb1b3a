/**
 * One identity for the kit's classes and shared state across every copy of the package in a process: the ESM and
 * the CJS build, each subpath entry, and a second `@framework/auth` that a package manager nested under an adapter.
 *
 * - Errors carry a list of brand names (a `Symbol.for` key), and `instanceof` on a branded class checks that list,
 *   so `err instanceof AuthError` holds for an error thrown by any copy.
 * - {@link processShared} keeps one value per key on `globalThis`, so the request scope is one `AsyncLocalStorage`.
 * @module
 * @internal
 */

/** Where an instance keeps the brands of its class chain. A registered symbol: the same in every copy. */
const BRANDS = Symbol.for('@framework/auth.brands');

/** A class that takes part in cross-copy `instanceof`: its own static `brand` names it. */
export interface BrandedClass {
  readonly brand?: string;
  readonly prototype: object;
}

/** The brands of `target` and its ancestors, nearest first (only classes that declare their own `brand`). */
function brandsOf(target: unknown): string[] {
  const brands: string[] = [];
  for (let c = target; typeof c === 'function'; c = Object.getPrototypeOf(c)) {
    if (Object.hasOwn(c, 'brand')) brands.push((c as BrandedClass).brand as string);
  }
  return brands;
}

/** Marks `instance` with the brands of the class it was built by (`new.target`). */
export function markBranded(instance: object, target: unknown): void {
  Object.defineProperty(instance, BRANDS, { value: Object.freeze(brandsOf(target)), enumerable: false });
}

/**
 * `instanceof` for a branded class: the prototype chain as usual, else the brand list that any copy of the class
 * wrote. A subclass without a `brand` of its own only matches through its prototype chain.
 */
export function isBranded(value: unknown, cls: BrandedClass): boolean {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  if (Object.prototype.isPrototypeOf.call(cls.prototype, value)) return true;
  if (!Object.hasOwn(cls, 'brand')) return false;
  const brands = (value as { [BRANDS]?: unknown })[BRANDS];
  return Array.isArray(brands) && brands.includes(cls.brand);
}

/**
 * The process-wide value under `key`, made by `create` the first time any copy of the package asks.
 * @example
 * ```ts
 * const storage = processShared('@framework/auth.requestScope.v1', () => new AsyncLocalStorage<AuthScope>());
 * ```
 */
export function processShared<T>(key: string, create: () => T): T {
  const slot = Symbol.for(key);
  const holder = globalThis as { [slot: symbol]: unknown };
  if (!(slot in holder)) {
    Object.defineProperty(holder, slot, { value: create(), enumerable: false, configurable: false, writable: false });
  }
  return holder[slot] as T;
}
