/**
 * The strings of `multiSession()`'s page (the accounts signed in on this browser), in English, German, French,
 * Spanish and Japanese.
 * @module
 */
import { defineMessages } from '../../plugin-kit.js';

const en = {
  'multiSession.title': 'Accounts',
  'multiSession.heading': 'Accounts on this browser',
  'multiSession.current': '(current)',
  'multiSession.switchTo': 'Switch to {name}',
  'multiSession.signOut': 'Sign out {name}',
  'multiSession.add': 'Add another account',
} as const;

/** A key of {@link multiSessionMessages}. */
export type MultiSessionMessageId = keyof typeof en;

/** `multiSession()`'s page strings (`multiSession.*`). */
export const multiSessionMessages = /* @__PURE__ */ defineMessages<MultiSessionMessageId>('multiSession', {
  en,
  de: {
    'multiSession.title': 'Konten',
    'multiSession.heading': 'Konten in diesem Browser',
    'multiSession.current': '(aktuell)',
    'multiSession.switchTo': 'Zu {name} wechseln',
    'multiSession.signOut': '{name} abmelden',
    'multiSession.add': 'Weiteres Konto hinzufügen',
  },
  fr: {
    'multiSession.title': 'Comptes',
    'multiSession.heading': 'Comptes sur ce navigateur',
    'multiSession.current': '(actuel)',
    'multiSession.switchTo': 'Passer à {name}',
    'multiSession.signOut': 'Déconnecter {name}',
    'multiSession.add': 'Ajouter un autre compte',
  },
  es: {
    'multiSession.title': 'Cuentas',
    'multiSession.heading': 'Cuentas en este navegador',
    'multiSession.current': '(actual)',
    'multiSession.switchTo': 'Cambiar a {name}',
    'multiSession.signOut': 'Cerrar la sesión de {name}',
    'multiSession.add': 'Añadir otra cuenta',
  },
  ja: {
    'multiSession.title': 'アカウント',
    'multiSession.heading': 'このブラウザーのアカウント',
    'multiSession.current': '（使用中）',
    'multiSession.switchTo': '{name} に切り替える',
    'multiSession.signOut': '{name} からサインアウト',
    'multiSession.add': '別のアカウントを追加',
  },
});
