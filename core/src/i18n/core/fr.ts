/** The core pages' strings in French. @module */
import type { Messages } from '../catalog.js';
import type { CoreMessageId } from './en.js';

export const fr: Messages<CoreMessageId> = {
  'common.email': 'E-mail',
  'common.password': 'Mot de passe',
  'common.backToSignIn': 'Retour à la connexion',

  'signIn.title': 'Se connecter',
  'signIn.lastUsed': 'Utilisé la dernière fois',
  'signIn.withProvider': 'Se connecter avec {provider}',
  'signIn.emailAndPassword': 'e-mail et mot de passe',
  'signIn.forgotPassword': 'Mot de passe oublié ?',
  'signIn.createAccount': 'Créer un compte',

  'signOut.title': 'Se déconnecter',
  'signOut.question': 'Voulez-vous vraiment vous déconnecter ?',
  'signOut.button': 'Se déconnecter',

  'errorPage.title': 'Erreur',
  'errorPage.heading': 'Problème de connexion',
  'errorPage.forbiddenTitle': 'Accès refusé',
  'errorPage.forbiddenHeading': "Vous n'avez pas accès à cette page",
  'errorPage.signInAnother': 'Se connecter avec un autre compte',
  'errorPage.notFoundHeading': 'Page introuvable',
  'errorPage.home': "Aller à la page d'accueil",
  'errorPage.retryInOneMinute': 'Réessayez dans 1 minute.',
  'errorPage.retryInMinutes': 'Réessayez dans {minutes} minutes.',

  'verifyRequest.title': 'Consultez vos e-mails',
  'verifyRequest.text': 'Un lien de connexion a été envoyé à votre adresse e-mail.',

  'error.CredentialsSignin': 'La connexion a échoué. Vérifiez les informations saisies et réessayez.',
  'error.AccessDenied': "Vous n'avez pas l'autorisation de vous connecter.",
  'error.Forbidden':
    "Votre compte ne peut pas ouvrir cette page. Demandez à un administrateur si vous avez besoin d'y accéder.",
  'error.Configuration': 'La configuration du serveur pose problème. Réessayez plus tard.',
  'error.Verification': "Le lien de connexion n'est plus valide. Il a peut-être déjà été utilisé ou il a expiré.",
  'error.MissingCSRF': 'Votre formulaire a expiré. Revenez en arrière, rechargez la page et réessayez.',
  'error.SessionRequired': 'Connectez-vous pour voir cette page.',
  'error.RateLimited': 'Trop de tentatives. Patientez un peu et réessayez.',
  'error.OAuthSignin': 'Impossible de lancer la connexion avec le fournisseur. Réessayez plus tard.',
  'error.OAuthCallbackError': "La connexion avec le fournisseur n'a pas pu aboutir. Veuillez réessayer.",
  'error.OAuthUserInfoFailed':
    "Le fournisseur n'a pas envoyé les informations de votre compte. Veuillez réessayer plus tard.",
  'error.OAuthUserInfoMismatch':
    'Les informations de compte du fournisseur ne correspondaient pas à la connexion, elle a donc été interrompue. Veuillez réessayer.',
  'error.OAuthAccountNotLinked':
    'Un compte existe déjà avec cet e-mail. Connectez-vous comme la dernière fois, puis associez ce fournisseur.',
  'error.InvalidProvider': "Ce mode de connexion n'est pas disponible.",
  'error.EmailSignInError': "L'e-mail de connexion n'a pas pu être envoyé. Veuillez réessayer plus tard.",
  'error.PasskeyError': "La clé d'accès n'a pas pu être utilisée. Veuillez réessayer.",
  'error.NotFound': "Il n'y a aucune page à cette adresse.",
  'error.Default': "Une erreur s'est produite. Veuillez réessayer.",

  'sessions.title': 'Vos sessions',
  'sessions.unknownDevice': 'Appareil inconnu',
  'sessions.thisDevice': '(cet appareil)',
  'sessions.signedIn': 'Connecté le {createdAt} ; dernière activité le {lastActiveAt}',
  'sessions.signedInFrom': 'Connecté le {createdAt} depuis {ip} ; dernière activité le {lastActiveAt}',
  'sessions.signOutDevice': 'Déconnecter cet appareil',
  'sessions.signOutSession': 'Fermer cette session',
  'sessions.signOutOthers': 'Fermer toutes les autres sessions',

  'signUp.title': 'Créer un compte',
  'signUp.name': 'Nom',
  'signUp.button': 'Créer le compte',
  'signUp.haveAccount': 'Vous avez déjà un compte ? Connectez-vous',

  'forgotPassword.title': 'Mot de passe oublié',
  'forgotPassword.heading': 'Mot de passe oublié ?',
  'forgotPassword.text':
    'Saisissez votre adresse e-mail et nous vous enverrons un lien pour choisir un nouveau mot de passe.',
  'forgotPassword.button': 'Envoyer le lien',

  'resetPassword.title': 'Choisir un nouveau mot de passe',
  'resetPassword.password': 'Nouveau mot de passe',
  'resetPassword.button': 'Enregistrer le mot de passe',

  'signInToConfirm.title': 'Connectez-vous pour confirmer',
  'signInToConfirm.text':
    "Connectez-vous au compte dont l'adresse e-mail deviendra {email} ; vous reviendrez ici pour confirmer.",
  'signInToConfirm.link': 'Se connecter',

  'checkEmail.title': 'Consultez vos e-mails',
  'checkEmail.verify':
    "Si l'adresse peut recevoir des e-mails, un lien pour la confirmer est en route. Il fonctionne une fois, pendant 24 heures.",
  'checkEmail.reset':
    'Si un compte utilise cette adresse, un lien pour choisir un nouveau mot de passe est en route. Il fonctionne une fois, pendant une heure.',
  'checkEmail.change':
    'Un lien pour confirmer votre nouvelle adresse y a été envoyé. Ouvrez-le en étant connecté à ce compte pour effectuer le changement.',

  'verifyEmail.title': 'Confirmer votre adresse e-mail',
  'verifyEmail.text': 'Confirmer cette adresse pour votre compte ?',
  'verifyEmail.button': 'Confirmer',

  'changeEmail.title': 'Changer votre adresse e-mail',
  'changeEmail.text':
    "Utiliser {email} comme adresse e-mail du compte auquel vous êtes connecté ? Si vous n'avez rien demandé, fermez cette page.",
  'changeEmail.textWithCurrent':
    "Utiliser {email} comme adresse e-mail du compte auquel vous êtes connecté ({current}) ? Si vous n'avez rien demandé, fermez cette page.",
  'changeEmail.button': 'Changer mon adresse e-mail',

  'undoEmailChange.title': "Annuler le changement d'adresse e-mail",
  'undoEmailChange.text':
    "Remettre {email} comme adresse de votre compte ? Toutes les sessions prennent fin et tous les moyens d'accès sont supprimés (mot de passe, comptes associés, clés d'accès, clés d'API, double authentification) ; vous choisirez ensuite un nouveau mot de passe.",
  'undoEmailChange.button': 'Annuler le changement',

  'magicLink.title': 'Se connecter',
  'magicLink.text': 'Continuer en tant que {email} ?',
  'magicLink.button': 'Se connecter',

  'code.EMAIL_TAKEN': 'Un compte existe déjà avec cette adresse e-mail',
};
