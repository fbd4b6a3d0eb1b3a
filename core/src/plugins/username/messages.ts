/**
 * The strings of `username()`'s sign-in form and settings page, in English, German, French, Spanish and Japanese.
 * @module
 */
import { defineMessages } from '../../plugin-kit.js';

const en = {
  'username.username': 'Username',
  'username.password': 'Password',
  'username.signIn': 'Sign in with username',
  'username.title': 'Username',
  'username.current': 'Your username is {username}.',
  'username.none': 'You have no username yet.',
  'username.saved': 'Saved.',
  'username.new': 'New username',
  'username.rules': '{min}–{max} characters: letters, digits, "_" and ".".',
  'username.save': 'Save',
} as const;

type Id = keyof typeof en;

/** `username()`'s page strings (`username.*`). */
export const usernameMessages = /* @__PURE__ */ defineMessages<Id>('username', {
  en,
  de: {
    'username.username': 'Benutzername',
    'username.password': 'Passwort',
    'username.signIn': 'Mit Benutzername anmelden',
    'username.title': 'Benutzername',
    'username.current': 'Ihr Benutzername ist {username}.',
    'username.none': 'Sie haben noch keinen Benutzernamen.',
    'username.saved': 'Gespeichert.',
    'username.new': 'Neuer Benutzername',
    'username.rules': '{min}–{max} Zeichen: Buchstaben, Ziffern, „_“ und „.“.',
    'username.save': 'Speichern',
  },
  fr: {
    'username.username': "Nom d'utilisateur",
    'username.password': 'Mot de passe',
    'username.signIn': "Se connecter avec le nom d'utilisateur",
    'username.title': "Nom d'utilisateur",
    'username.current': "Votre nom d'utilisateur est {username}.",
    'username.none': "Vous n'avez pas encore de nom d'utilisateur.",
    'username.saved': 'Enregistré.',
    'username.new': "Nouveau nom d'utilisateur",
    'username.rules': '{min} à {max} caractères : lettres, chiffres, « _ » et « . ».',
    'username.save': 'Enregistrer',
  },
  es: {
    'username.username': 'Nombre de usuario',
    'username.password': 'Contraseña',
    'username.signIn': 'Iniciar sesión con nombre de usuario',
    'username.title': 'Nombre de usuario',
    'username.current': 'Tu nombre de usuario es {username}.',
    'username.none': 'Todavía no tienes nombre de usuario.',
    'username.saved': 'Guardado.',
    'username.new': 'Nuevo nombre de usuario',
    'username.rules': 'De {min} a {max} caracteres: letras, dígitos, «_» y «.».',
    'username.save': 'Guardar',
  },
  ja: {
    'username.username': 'ユーザー名',
    'username.password': 'パスワード',
    'username.signIn': 'ユーザー名でサインイン',
    'username.title': 'ユーザー名',
    'username.current': '現在のユーザー名は{username}です。',
    'username.none': 'ユーザー名はまだ設定されていません。',
    'username.saved': '保存しました。',
    'username.new': '新しいユーザー名',
    'username.rules': '{min}〜{max}文字：英字、数字、「_」、「.」が使えます。',
    'username.save': '保存',
  },
});
