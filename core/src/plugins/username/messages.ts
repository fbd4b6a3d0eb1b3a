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
  'code.USERNAME_INVALID': 'Choose a username of letters, digits, "_" and "." with no spaces or look-alike characters',
  'code.USERNAME_TAKEN': 'That username is taken',
} as const;

type Id = keyof typeof en;

/** `username()`'s page strings (`username.*`) and the messages of its error codes (`code.USERNAME_*`). */
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
    'code.USERNAME_INVALID':
      'Wählen Sie einen Benutzernamen aus Buchstaben, Ziffern, „_“ und „.“ ohne Leerzeichen oder verwechselbare Zeichen',
    'code.USERNAME_TAKEN': 'Dieser Benutzername ist schon vergeben',
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
    'code.USERNAME_INVALID':
      "Choisissez un nom d'utilisateur composé de lettres, de chiffres, « _ » et « . », sans espaces ni caractères trompeurs",
    'code.USERNAME_TAKEN': "Ce nom d'utilisateur est déjà pris",
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
    'code.USERNAME_INVALID':
      'Elige un nombre de usuario con letras, dígitos, «_» y «.», sin espacios ni caracteres que se confundan',
    'code.USERNAME_TAKEN': 'Ese nombre de usuario ya está ocupado',
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
    'code.USERNAME_INVALID': 'ユーザー名には英字、数字、「_」、「.」を使い、空白や紛らわしい文字は使わないでください',
    'code.USERNAME_TAKEN': 'そのユーザー名はすでに使われています',
  },
});
