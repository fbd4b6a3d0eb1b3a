/**
 * The strings of `passkey()`'s sign-in button and passkeys page, in English, German, French, Spanish and Japanese.
 * @module
 */
import { defineMessages } from '../../i18n/catalog.js';

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
  },
});
