/**
 * The core pages' catalog (`core`): sign-in, sign-out, error, verify-request, sessions, sign-up, password and
 * emailed-link pages, in English, German, French, Spanish and Japanese.
 * @module
 */
import { defineMessages, type Translator } from '../catalog.js';
import { en, type CoreMessageId } from './en.js';
import { de } from './de.js';
import { fr } from './fr.js';
import { es } from './es.js';
import { ja } from './ja.js';

export type { CoreMessageId } from './en.js';

/** The core pages' strings. */
export const coreMessages = /* @__PURE__ */ defineMessages<CoreMessageId>('core', { en, de, fr, es, ja });

/** A translator of the core pages' strings. */
export type CoreTranslator = Translator<CoreMessageId>;
