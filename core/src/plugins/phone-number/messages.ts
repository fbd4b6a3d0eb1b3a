/**
 * The strings of `phoneNumber()`'s pages and sign-in form, in English, German, French, Spanish and Japanese.
 * @module
 */
import { defineMessages } from '../../plugin-kit.js';

const en = {
  'phoneNumber.number': 'Phone number',
  'phoneNumber.code': 'Code from the text message',
  'phoneNumber.sendCode': 'Text me a code',
  'phoneNumber.signInFormButton': 'Text me a sign-in code',
  'phoneNumber.signIn.title': 'Sign in with your phone',
  'phoneNumber.sent': 'We texted a code to {phoneNumber}.',
  'phoneNumber.verify.title': 'Your phone number',
  'phoneNumber.verify.current': "This account's number: {phoneNumber}.",
  'phoneNumber.verify.currentVerified': "This account's number: {phoneNumber} (verified).",
  'code.PHONE_NUMBER_INVALID': 'Enter a valid phone number',
  'code.PHONE_NUMBER_TAKEN': 'This phone number belongs to another account',
} as const;

type Id = keyof typeof en;

/** `phoneNumber()`'s page strings (`phoneNumber.*`) and the messages of its form errors (`code.PHONE_NUMBER_*`). */
export const phoneNumberMessages = /* @__PURE__ */ defineMessages<Id>('phoneNumber', {
  en,
  de: {
    'phoneNumber.number': 'Telefonnummer',
    'phoneNumber.code': 'Code aus der SMS',
    'phoneNumber.sendCode': 'Code per SMS senden',
    'phoneNumber.signInFormButton': 'Anmeldecode per SMS senden',
    'phoneNumber.signIn.title': 'Mit dem Telefon anmelden',
    'phoneNumber.sent': 'Wir haben einen Code per SMS an {phoneNumber} gesendet.',
    'phoneNumber.verify.title': 'Ihre Telefonnummer',
    'phoneNumber.verify.current': 'Nummer dieses Kontos: {phoneNumber}.',
    'phoneNumber.verify.currentVerified': 'Nummer dieses Kontos: {phoneNumber} (bestätigt).',
    'code.PHONE_NUMBER_INVALID': 'Geben Sie eine gültige Telefonnummer ein',
    'code.PHONE_NUMBER_TAKEN': 'Diese Telefonnummer gehört zu einem anderen Konto',
  },
  fr: {
    'phoneNumber.number': 'Numéro de téléphone',
    'phoneNumber.code': 'Code reçu par SMS',
    'phoneNumber.sendCode': "M'envoyer un code par SMS",
    'phoneNumber.signInFormButton': "M'envoyer un code de connexion par SMS",
    'phoneNumber.signIn.title': 'Se connecter avec votre téléphone',
    'phoneNumber.sent': 'Nous avons envoyé un code par SMS au {phoneNumber}.',
    'phoneNumber.verify.title': 'Votre numéro de téléphone',
    'phoneNumber.verify.current': 'Numéro de ce compte : {phoneNumber}.',
    'phoneNumber.verify.currentVerified': 'Numéro de ce compte : {phoneNumber} (vérifié).',
    'code.PHONE_NUMBER_INVALID': 'Saisissez un numéro de téléphone valide',
    'code.PHONE_NUMBER_TAKEN': 'Ce numéro de téléphone appartient à un autre compte',
  },
  es: {
    'phoneNumber.number': 'Número de teléfono',
    'phoneNumber.code': 'Código del SMS',
    'phoneNumber.sendCode': 'Enviarme un código por SMS',
    'phoneNumber.signInFormButton': 'Enviarme un código de acceso por SMS',
    'phoneNumber.signIn.title': 'Iniciar sesión con tu teléfono',
    'phoneNumber.sent': 'Hemos enviado un código por SMS al {phoneNumber}.',
    'phoneNumber.verify.title': 'Tu número de teléfono',
    'phoneNumber.verify.current': 'Número de esta cuenta: {phoneNumber}.',
    'phoneNumber.verify.currentVerified': 'Número de esta cuenta: {phoneNumber} (verificado).',
    'code.PHONE_NUMBER_INVALID': 'Introduce un número de teléfono válido',
    'code.PHONE_NUMBER_TAKEN': 'Este número de teléfono pertenece a otra cuenta',
  },
  ja: {
    'phoneNumber.number': '電話番号',
    'phoneNumber.code': 'SMSに記載されたコード',
    'phoneNumber.sendCode': 'コードをSMSで受け取る',
    'phoneNumber.signInFormButton': 'サインインコードをSMSで受け取る',
    'phoneNumber.signIn.title': '電話番号でサインイン',
    'phoneNumber.sent': '{phoneNumber}にSMSでコードを送信しました。',
    'phoneNumber.verify.title': '電話番号',
    'phoneNumber.verify.current': 'このアカウントの電話番号：{phoneNumber}',
    'phoneNumber.verify.currentVerified': 'このアカウントの電話番号：{phoneNumber}（確認済み）',
    'code.PHONE_NUMBER_INVALID': '有効な電話番号を入力してください',
    'code.PHONE_NUMBER_TAKEN': 'この電話番号は別のアカウントで使用されています',
  },
});
