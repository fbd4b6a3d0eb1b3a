/**
 * The strings of `passkey()`'s sign-in button, passkeys page and ceremony status line, in English, German, French, Spanish and Japanese.
 * @module
 */
import { defineMessages, type Translator } from '../../i18n/catalog.js';

const en = {
  'passkey.signIn': 'Sign in with a passkey',
  'passkey.title': 'Passkeys',
  'passkey.heading': 'Your passkeys',
  'passkey.unnamed': 'Passkey',
  'passkey.added': 'added',
  'passkey.delete': 'Delete',
  'passkey.deleteNamed': 'Delete {name}',
  'passkey.none': 'You have no passkeys yet.',
  'passkey.newName': 'Name for a new passkey',
  'passkey.defaultName': 'My passkey',
  'passkey.add': 'Add a passkey',
  'passkey.waiting': 'Waiting for your passkey…',
  'passkey.done': 'Done.',
  'passkey.failed': 'The passkey could not be used. Please try again.',
} as const;

type Id = keyof typeof en;

/** `passkey()`'s page strings (`passkey.*`). */
export const passkeyMessages = /* @__PURE__ */ defineMessages<Id>('passkey', {
  en,
  de: {
    'passkey.signIn': 'Mit einem Passkey anmelden',
    'passkey.title': 'Passkeys',
    'passkey.heading': 'Ihre Passkeys',
    'passkey.unnamed': 'Passkey',
    'passkey.added': 'hinzugefügt',
    'passkey.delete': 'Löschen',
    'passkey.deleteNamed': '{name} löschen',
    'passkey.none': 'Sie haben noch keine Passkeys.',
    'passkey.newName': 'Name für einen neuen Passkey',
    'passkey.defaultName': 'Mein Passkey',
    'passkey.add': 'Passkey hinzufügen',
    'passkey.waiting': 'Warten auf Ihren Passkey …',
    'passkey.done': 'Fertig.',
    'passkey.failed': 'Der Passkey konnte nicht verwendet werden. Bitte versuchen Sie es erneut.',
  },
  fr: {
    'passkey.signIn': "Se connecter avec une clé d'accès",
    'passkey.title': "Clés d'accès",
    'passkey.heading': "Vos clés d'accès",
    'passkey.unnamed': "Clé d'accès",
    'passkey.added': 'ajoutée le',
    'passkey.delete': 'Supprimer',
    'passkey.deleteNamed': 'Supprimer {name}',
    'passkey.none': "Vous n'avez encore aucune clé d'accès.",
    'passkey.newName': "Nom de la nouvelle clé d'accès",
    'passkey.defaultName': "Ma clé d'accès",
    'passkey.add': "Ajouter une clé d'accès",
    'passkey.waiting': "En attente de votre clé d'accès…",
    'passkey.done': 'Terminé.',
    'passkey.failed': "La clé d'accès n'a pas pu être utilisée. Veuillez réessayer.",
  },
  es: {
    'passkey.signIn': 'Iniciar sesión con una llave de acceso',
    'passkey.title': 'Llaves de acceso',
    'passkey.heading': 'Tus llaves de acceso',
    'passkey.unnamed': 'Llave de acceso',
    'passkey.added': 'añadida el',
    'passkey.delete': 'Eliminar',
    'passkey.deleteNamed': 'Eliminar {name}',
    'passkey.none': 'Todavía no tienes llaves de acceso.',
    'passkey.newName': 'Nombre de la nueva llave de acceso',
    'passkey.defaultName': 'Mi llave de acceso',
    'passkey.add': 'Añadir una llave de acceso',
    'passkey.waiting': 'Esperando tu llave de acceso…',
    'passkey.done': 'Listo.',
    'passkey.failed': 'No se pudo usar la llave de acceso. Inténtalo de nuevo.',
  },
  ja: {
    'passkey.signIn': 'パスキーでサインイン',
    'passkey.title': 'パスキー',
    'passkey.heading': 'パスキー一覧',
    'passkey.unnamed': 'パスキー',
    'passkey.added': '追加日',
    'passkey.delete': '削除',
    'passkey.deleteNamed': '{name}を削除',
    'passkey.none': 'パスキーはまだありません。',
    'passkey.newName': '新しいパスキーの名前',
    'passkey.defaultName': 'マイパスキー',
    'passkey.add': 'パスキーを追加',
    'passkey.waiting': 'パスキーを待っています…',
    'passkey.done': '完了しました。',
    'passkey.failed': 'パスキーを使用できませんでした。もう一度お試しください。',
  },
});

/** The ceremony's status line in the translator's language, for `passkeyScript`. */
export function passkeyStatus(t: Translator<Id>): { waiting: string; done: string; failed: string } {
  return { waiting: t('passkey.waiting'), done: t('passkey.done'), failed: t('passkey.failed') };
}
