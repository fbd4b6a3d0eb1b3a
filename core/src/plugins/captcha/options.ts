/**
 * `captcha()`'s options, checked once when the plugin is made.
 * @module
 */
import { AuthConfigError } from '../../plugin-kit.js';

/** The captcha services `captcha()` verifies tokens with. */
export type CaptchaProvider = 'turnstile' | 'hcaptcha' | 'recaptcha';

/** The options of {@link captcha}. */
export interface CaptchaOptions {
  /** Cloudflare Turnstile, hCaptcha or Google reCAPTCHA (v2 and v3). */
  provider: CaptchaProvider;
  /** The secret key of your site at the provider (server side only; never sent to browsers). */
  secretKey: string;
  /**
   * The routes whose POSTs need a token, as paths under `basePath`: a route template (`/signin/:provider`,
   * every provider) or one concrete path (`/signin/credentials`). Default {@link DEFAULT_CAPTCHA_ROUTES}: sign-up,
   * the credentials sign-in (both its routes) and forgot password.
   */
  routes?: readonly string[];
  /**
   * The provider's verify endpoint. Default: the provider's own (`https://challenges.cloudflare.com/turnstile/v0/siteverify`,
   * `https://api.hcaptcha.com/siteverify`, `https://www.google.com/recaptcha/api/siteverify`). Tests point it at a
   * local fake.
   */
  verifyUrl?: string;
  /** hCaptcha: your site key, sent as `sitekey` so the provider checks the token was issued for it. */
  siteKey?: string;
  /** reCAPTCHA v3 (and hCaptcha Enterprise): the lowest `score` accepted, 0 to 1. Default: the score is not read. */
  minScore?: number;
  /** The `fetch` that calls the verify endpoint. Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Most time one verification may take, in **milliseconds**; then 503 `CAPTCHA_UNAVAILABLE`. Default 10 000. */
  timeout?: number;
}

/** The routes `captcha()` guards unless told otherwise. */
export const DEFAULT_CAPTCHA_ROUTES: readonly string[] = Object.freeze([
  '/signup',
  '/signin/credentials',
  '/callback/credentials',
  '/password/forgot',
]);

const VERIFY_URLS: Readonly<Record<CaptchaProvider, string>> = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  hcaptcha: 'https://api.hcaptcha.com/siteverify',
  recaptcha: 'https://www.google.com/recaptcha/api/siteverify',
};

/** The form field each provider's widget adds to the form it sits in. */
export const WIDGET_FIELDS: Readonly<Record<CaptchaProvider, string>> = {
  turnstile: 'cf-turnstile-response',
  hcaptcha: 'h-captcha-response',
  recaptcha: 'g-recaptcha-response',
};

/** The options with every default filled in. */
export interface ResolvedCaptchaOptions {
  provider: CaptchaProvider;
  secretKey: string;
  routes: ReadonlySet<string>;
  /** Whether the app named the routes (then each must be served by some route). */
  routesGiven: boolean;
  verifyUrl: string;
  siteKey: string | undefined;
  minScore: number | undefined;
  fetch: typeof fetch;
  timeout: number;
}

/**
 * Checks and completes {@link CaptchaOptions}.
 * @throws AuthConfigError (`INVALID_CONFIG`) naming the bad option.
 */
export function resolveCaptchaOptions(o: CaptchaOptions): ResolvedCaptchaOptions {
  const fail = (what: string): never => {
    throw new AuthConfigError(`Invalid auth config: captcha(): ${what}`);
  };
  if (!o || typeof o !== 'object') fail('needs an options object');
  if (!Object.hasOwn(VERIFY_URLS, o.provider)) fail('provider must be "turnstile", "hcaptcha" or "recaptcha"');
  if (typeof o.secretKey !== 'string' || o.secretKey === '') fail('secretKey must be a non-empty string');
  const routes = o.routes ?? DEFAULT_CAPTCHA_ROUTES;
  if (!Array.isArray(routes) || routes.some((r) => typeof r !== 'string' || !/^\/[a-z0-9:]/.test(r)))
    fail('routes must be paths under basePath such as "/signup"');
  const verifyUrl = o.verifyUrl ?? VERIFY_URLS[o.provider];
  if (!URL.canParse(verifyUrl)) fail('verifyUrl must be an absolute URL');
  if (o.minScore !== undefined && !(o.minScore >= 0 && o.minScore <= 1)) fail('minScore must be between 0 and 1');
  const timeout = o.timeout ?? 10_000;
  if (!Number.isInteger(timeout) || timeout <= 0) fail('timeout must be a positive integer (milliseconds)');
  const fetchImpl = o.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') fail('fetch must be a function');
  return {
    provider: o.provider,
    secretKey: o.secretKey,
    routes: new Set(routes),
    routesGiven: o.routes !== undefined,
    verifyUrl,
    siteKey: o.siteKey,
    minScore: o.minScore,
    fetch: fetchImpl,
    timeout,
  };
}
