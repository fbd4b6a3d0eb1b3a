/**
 * The strings of `sso()`'s sign-in page and of its refusals people see there, in English, German, French, Spanish
 * and Japanese.
 * @module
 */
import { defineMessages } from '../../plugin-kit.js';

const en = {
  'sso.signIn.title': 'Sign in with SSO',
  'sso.signIn.lead': "Enter your work email: you continue at your organization's identity provider.",
  'sso.signIn.email': 'Work email',
  'sso.signIn.continue': 'Continue',
  'sso.signIn.other': 'Other ways to sign in',
  'code.SSO_NO_PROVIDER': 'Single sign-on is not set up for this account',
  'code.SSO_SAML_UNAVAILABLE': 'SAML single sign-on is not available',
} as const;

type Id = keyof typeof en;

/** `sso()`'s sign-in page strings (`sso.*`) and the messages of its refusals there (`code.SSO_*`). */
export const ssoMessages = /* @__PURE__ */ defineMessages<Id>('sso', {
  en,
  de: {
    'sso.signIn.title': 'Mit SSO anmelden',
    'sso.signIn.lead':
      'Geben Sie Ihre geschäftliche E-Mail-Adresse ein: Sie melden sich beim Identitätsanbieter Ihrer Organisation an.',
    'sso.signIn.email': 'Geschäftliche E-Mail-Adresse',
    'sso.signIn.continue': 'Weiter',
    'sso.signIn.other': 'Andere Anmeldemöglichkeiten',
    'code.SSO_NO_PROVIDER': 'Für dieses Konto ist keine Einmalanmeldung eingerichtet',
    'code.SSO_SAML_UNAVAILABLE': 'Die Einmalanmeldung mit SAML ist nicht verfügbar',
  },
  fr: {
    'sso.signIn.title': 'Se connecter avec le SSO',
    'sso.signIn.lead':
      "Saisissez votre adresse e-mail professionnelle : vous continuez chez le fournisseur d'identité de votre organisation.",
    'sso.signIn.email': 'E-mail professionnel',
    'sso.signIn.continue': 'Continuer',
    'sso.signIn.other': 'Autres façons de se connecter',
    'code.SSO_NO_PROVIDER': "L'authentification unique n'est pas configurée pour ce compte",
    'code.SSO_SAML_UNAVAILABLE': "L'authentification unique SAML n'est pas disponible",
  },
  es: {
    'sso.signIn.title': 'Iniciar sesión con SSO',
    'sso.signIn.lead': 'Introduce tu correo del trabajo: continuarás en el proveedor de identidad de tu organización.',
    'sso.signIn.email': 'Correo del trabajo',
    'sso.signIn.continue': 'Continuar',
    'sso.signIn.other': 'Otras formas de iniciar sesión',
    'code.SSO_NO_PROVIDER': 'El inicio de sesión único no está configurado para esta cuenta',
    'code.SSO_SAML_UNAVAILABLE': 'El inicio de sesión único con SAML no está disponible',
  },
  ja: {
    'sso.signIn.title': 'SSO でサインイン',
    'sso.signIn.lead': '勤務先のメールアドレスを入力してください。組織の ID プロバイダーでサインインを続けます。',
    'sso.signIn.email': '勤務先のメールアドレス',
    'sso.signIn.continue': '続ける',
    'sso.signIn.other': 'その他のサインイン方法',
    'code.SSO_NO_PROVIDER': 'このアカウントにはシングルサインオンが設定されていません',
    'code.SSO_SAML_UNAVAILABLE': 'SAML によるシングルサインオンは利用できません',
  },
});
