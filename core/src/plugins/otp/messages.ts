/**
 * The strings the code pages of `emailOTP()` and `phoneNumber()` share, and the messages of the OTP error codes on
 * those pages, in English, German, French, Spanish and Japanese.
 * @module
 */
import { defineMessages } from '../../plugin-kit.js';

const en = {
  'otp.enterCode': 'Enter your code',
  'otp.sendNewCode': 'Send a new code',
  'otp.signIn': 'Sign in',
  'otp.verify': 'Verify',
  'code.OTP_INVALID': 'That code is wrong or has expired',
  'code.OTP_TOO_MANY_ATTEMPTS': 'Too many wrong codes: ask for a new one',
  'code.OTP_SEND_FAILED': 'The code could not be sent: try again later',
} as const;

type Id = keyof typeof en;

/** The shared code-page strings (`otp.*`) and the OTP error messages (`code.OTP_*`). */
export const otpMessages = /* @__PURE__ */ defineMessages<Id>('otp', {
  en,
  de: {
    'otp.enterCode': 'Code eingeben',
    'otp.sendNewCode': 'Neuen Code senden',
    'otp.signIn': 'Anmelden',
    'otp.verify': 'Bestätigen',
    'code.OTP_INVALID': 'Der Code ist falsch oder abgelaufen',
    'code.OTP_TOO_MANY_ATTEMPTS': 'Zu viele falsche Codes: Fordern Sie einen neuen an',
    'code.OTP_SEND_FAILED': 'Der Code konnte nicht gesendet werden: Versuchen Sie es später erneut',
  },
  fr: {
    'otp.enterCode': 'Saisissez votre code',
    'otp.sendNewCode': 'Envoyer un nouveau code',
    'otp.signIn': 'Se connecter',
    'otp.verify': 'Vérifier',
    'code.OTP_INVALID': 'Ce code est incorrect ou a expiré',
    'code.OTP_TOO_MANY_ATTEMPTS': 'Trop de codes incorrects : demandez-en un nouveau',
    'code.OTP_SEND_FAILED': "Le code n'a pas pu être envoyé : réessayez plus tard",
  },
  es: {
    'otp.enterCode': 'Introduce tu código',
    'otp.sendNewCode': 'Enviar un código nuevo',
    'otp.signIn': 'Iniciar sesión',
    'otp.verify': 'Verificar',
    'code.OTP_INVALID': 'El código es incorrecto o ha caducado',
    'code.OTP_TOO_MANY_ATTEMPTS': 'Demasiados códigos incorrectos: pide uno nuevo',
    'code.OTP_SEND_FAILED': 'No se pudo enviar el código: inténtalo más tarde',
  },
  ja: {
    'otp.enterCode': 'コードを入力してください',
    'otp.sendNewCode': '新しいコードを送信',
    'otp.signIn': 'サインイン',
    'otp.verify': '確認する',
    'code.OTP_INVALID': 'コードが間違っているか、有効期限が切れています',
    'code.OTP_TOO_MANY_ATTEMPTS': '間違ったコードが多すぎます。新しいコードをリクエストしてください',
    'code.OTP_SEND_FAILED': 'コードを送信できませんでした。しばらくしてからもう一度お試しください',
  },
});
