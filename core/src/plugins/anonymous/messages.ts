/**
 * The string of `anonymous()`'s sign-in form, in English, German, French, Spanish and Japanese.
 * @module
 */
import { defineMessages } from '../../plugin-kit.js';

/** `anonymous()`'s page strings (`anonymous.*`). */
export const anonymousMessages = /* @__PURE__ */ defineMessages<'anonymous.continue'>('anonymous', {
  en: { 'anonymous.continue': 'Continue as guest' },
  de: { 'anonymous.continue': 'Als Gast fortfahren' },
  fr: { 'anonymous.continue': "Continuer en tant qu'invité" },
  es: { 'anonymous.continue': 'Continuar como invitado' },
  ja: { 'anonymous.continue': 'ゲストとして続行' },
});
