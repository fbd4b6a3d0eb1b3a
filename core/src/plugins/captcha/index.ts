/**
 * `@framework/auth/plugins/captcha`: server-side captcha verification (Cloudflare Turnstile, hCaptcha, Google
 * reCAPTCHA) on the routes you choose. See core/README.md "Captcha".
 * @module
 */
export { captcha } from './plugin.js';
export { DEFAULT_CAPTCHA_ROUTES, type CaptchaOptions, type CaptchaProvider } from './options.js';
export { CAPTCHA_ERRORS, type CaptchaErrorCode } from './errors.js';
