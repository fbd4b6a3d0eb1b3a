/** The core pages' strings in German. @module */
import type { Messages } from '../catalog.js';
import type { CoreMessageId } from './en.js';

export const de: Messages<CoreMessageId> = {
  'common.email': 'E-Mail',
  'common.password': 'Passwort',
  'common.backToSignIn': 'Zurück zur Anmeldung',

  'signIn.title': 'Anmelden',
  'signIn.lastUsed': 'Zuletzt verwendet',
  'signIn.withProvider': 'Mit {provider} anmelden',
  'signIn.emailAndPassword': 'E-Mail und Passwort',
  'signIn.forgotPassword': 'Passwort vergessen?',
  'signIn.createAccount': 'Konto erstellen',

  'signOut.title': 'Abmelden',
  'signOut.question': 'Möchten Sie sich wirklich abmelden?',
  'signOut.button': 'Abmelden',

  'errorPage.title': 'Fehler',
  'errorPage.heading': 'Problem bei der Anmeldung',
  'errorPage.forbiddenTitle': 'Kein Zugriff',
  'errorPage.forbiddenHeading': 'Sie haben keinen Zugriff',
  'errorPage.signInAnother': 'Mit einem anderen Konto anmelden',
  'errorPage.notFoundHeading': 'Seite nicht gefunden',
  'errorPage.home': 'Zur Startseite',
  'errorPage.retryInOneMinute': 'Versuchen Sie es in 1 Minute erneut.',
  'errorPage.retryInMinutes': 'Versuchen Sie es in {minutes} Minuten erneut.',

  'verifyRequest.title': 'Prüfen Sie Ihre E-Mails',
  'verifyRequest.text': 'Wir haben einen Anmeldelink an Ihre E-Mail-Adresse gesendet.',

  'error.CredentialsSignin': 'Die Anmeldung ist fehlgeschlagen. Prüfen Sie Ihre Angaben und versuchen Sie es erneut.',
  'error.AccessDenied': 'Sie haben keine Berechtigung, sich anzumelden.',
  'error.Forbidden':
    'Ihr Konto kann diese Seite nicht öffnen. Wenden Sie sich an eine Administratorin oder einen Administrator, wenn Sie Zugriff brauchen.',
  'error.Configuration': 'Die Serverkonfiguration ist fehlerhaft. Versuchen Sie es später erneut.',
  'error.Verification':
    'Der Anmeldelink ist nicht mehr gültig. Vielleicht wurde er schon verwendet oder er ist abgelaufen.',
  'error.MissingCSRF':
    'Das Formular ist abgelaufen. Gehen Sie zurück, laden Sie die Seite neu und versuchen Sie es erneut.',
  'error.SessionRequired': 'Bitte melden Sie sich an, um diese Seite zu sehen.',
  'error.RateLimited': 'Zu viele Versuche. Warten Sie kurz und versuchen Sie es dann erneut.',
  'error.OAuthSignin': 'Die Anmeldung beim Anbieter konnte nicht gestartet werden. Versuchen Sie es später erneut.',
  'error.OAuthCallbackError':
    'Die Anmeldung beim Anbieter konnte nicht abgeschlossen werden. Bitte versuchen Sie es erneut.',
  'error.OAuthUserInfoFailed':
    'Der Anbieter hat Ihre Kontodaten nicht übermittelt. Bitte versuchen Sie es später erneut.',
  'error.OAuthUserInfoMismatch':
    'Die Kontodaten des Anbieters passten nicht zur Anmeldung, deshalb wurde sie abgebrochen. Bitte versuchen Sie es erneut.',
  'error.OAuthAccountNotLinked':
    'Es gibt bereits ein Konto mit dieser E-Mail-Adresse. Melden Sie sich so an wie bisher und verknüpfen Sie dann diesen Anbieter.',
  'error.InvalidProvider': 'Diese Anmeldemethode ist nicht verfügbar.',
  'error.EmailSignInError': 'Die Anmelde-E-Mail konnte nicht gesendet werden. Bitte versuchen Sie es später erneut.',
  'error.PasskeyError': 'Der Passkey konnte nicht verwendet werden. Bitte versuchen Sie es erneut.',
  'error.NotFound': 'Unter dieser Adresse gibt es keine Seite.',
  'error.Default': 'Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.',

  'sessions.title': 'Ihre Sitzungen',
  'sessions.unknownDevice': 'Unbekanntes Gerät',
  'sessions.thisDevice': '(dieses Gerät)',
  'sessions.signedIn': 'Angemeldet am {createdAt}; zuletzt aktiv am {lastActiveAt}',
  'sessions.signedInFrom': 'Angemeldet am {createdAt} von {ip}; zuletzt aktiv am {lastActiveAt}',
  'sessions.signOutDevice': 'Dieses Gerät abmelden',
  'sessions.signOutSession': 'Diese Sitzung beenden',
  'sessions.signOutOthers': 'Alle anderen Sitzungen beenden',

  'signUp.title': 'Konto erstellen',
  'signUp.name': 'Name',
  'signUp.button': 'Konto erstellen',
  'signUp.haveAccount': 'Sie haben schon ein Konto? Anmelden',

  'forgotPassword.title': 'Passwort vergessen',
  'forgotPassword.heading': 'Passwort vergessen?',
  'forgotPassword.text':
    'Geben Sie Ihre E-Mail-Adresse ein. Wir senden Ihnen einen Link, mit dem Sie ein neues Passwort wählen können.',
  'forgotPassword.button': 'Link senden',

  'resetPassword.title': 'Neues Passwort wählen',
  'resetPassword.password': 'Neues Passwort',
  'resetPassword.button': 'Passwort speichern',

  'signInToConfirm.title': 'Zum Bestätigen anmelden',
  'signInToConfirm.text':
    'Melden Sie sich bei dem Konto an, dessen E-Mail-Adresse {email} werden soll; danach kommen Sie zum Bestätigen hierher zurück.',
  'signInToConfirm.link': 'Anmelden',

  'checkEmail.title': 'Prüfen Sie Ihre E-Mails',
  'checkEmail.verify':
    'Wenn die Adresse E-Mails empfangen kann, ist ein Link zur Bestätigung unterwegs. Er funktioniert einmal und 24 Stunden lang.',
  'checkEmail.reset':
    'Wenn ein Konto diese Adresse verwendet, ist ein Link zum Wählen eines neuen Passworts unterwegs. Er funktioniert einmal und eine Stunde lang.',
  'checkEmail.change':
    'Ein Link zur Bestätigung ist an Ihre neue Adresse unterwegs. Öffnen Sie ihn, während Sie bei diesem Konto angemeldet sind, um die Änderung abzuschließen.',

  'verifyEmail.title': 'E-Mail-Adresse bestätigen',
  'verifyEmail.text': 'Diese Adresse für Ihr Konto bestätigen?',
  'verifyEmail.button': 'Bestätigen',

  'changeEmail.title': 'E-Mail-Adresse ändern',
  'changeEmail.text':
    '{email} als E-Mail-Adresse des Kontos verwenden, bei dem Sie angemeldet sind? Wenn Sie das nicht angefordert haben, schließen Sie diese Seite.',
  'changeEmail.textWithCurrent':
    '{email} als E-Mail-Adresse des Kontos verwenden, bei dem Sie angemeldet sind ({current})? Wenn Sie das nicht angefordert haben, schließen Sie diese Seite.',
  'changeEmail.button': 'E-Mail-Adresse ändern',

  'undoEmailChange.title': 'E-Mail-Änderung rückgängig machen',
  'undoEmailChange.text':
    '{email} wieder als Adresse Ihres Kontos eintragen? Alle Sitzungen enden und alle Zugänge werden entfernt (Passwort, verknüpfte Konten, Passkeys, API-Schlüssel, Zwei-Faktor); danach wählen Sie ein neues Passwort.',
  'undoEmailChange.button': 'Änderung rückgängig machen',

  'magicLink.title': 'Anmelden',
  'magicLink.text': 'Als {email} fortfahren?',
  'magicLink.button': 'Anmelden',

  'code.EMAIL_TAKEN': 'Es gibt bereits ein Konto mit dieser E-Mail-Adresse',
};
