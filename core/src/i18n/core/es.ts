/** The core pages' strings in Spanish. @module */
import type { Messages } from '../catalog.js';
import type { CoreMessageId } from './en.js';

export const es: Messages<CoreMessageId> = {
  'common.email': 'Correo electrónico',
  'common.password': 'Contraseña',
  'common.backToSignIn': 'Volver a iniciar sesión',

  'signIn.title': 'Iniciar sesión',
  'signIn.lastUsed': 'Usado por última vez',
  'signIn.withProvider': 'Iniciar sesión con {provider}',
  'signIn.emailAndPassword': 'correo y contraseña',
  'signIn.forgotPassword': '¿Has olvidado la contraseña?',
  'signIn.createAccount': 'Crear una cuenta',

  'signOut.title': 'Cerrar sesión',
  'signOut.question': '¿Seguro que quieres cerrar la sesión?',
  'signOut.button': 'Cerrar sesión',

  'errorPage.title': 'Error',
  'errorPage.heading': 'Problema al iniciar sesión',
  'errorPage.forbiddenTitle': 'Sin acceso',
  'errorPage.forbiddenHeading': 'No tienes acceso',
  'errorPage.signInAnother': 'Iniciar sesión con otra cuenta',
  'errorPage.notFoundHeading': 'Página no encontrada',
  'errorPage.home': 'Ir a la página de inicio',
  'errorPage.retryInOneMinute': 'Vuelve a intentarlo dentro de 1 minuto.',
  'errorPage.retryInMinutes': 'Vuelve a intentarlo dentro de {minutes} minutos.',

  'verifyRequest.title': 'Revisa tu correo',
  'verifyRequest.text': 'Hemos enviado un enlace de inicio de sesión a tu dirección de correo electrónico.',

  'error.CredentialsSignin': 'No se pudo iniciar sesión. Revisa los datos que has introducido e inténtalo de nuevo.',
  'error.AccessDenied': 'No tienes permiso para iniciar sesión.',
  'error.Forbidden': 'Tu cuenta no puede abrir esta página. Pide acceso a un administrador si lo necesitas.',
  'error.Configuration': 'Hay un problema con la configuración del servidor. Inténtalo más tarde.',
  'error.Verification':
    'El enlace de inicio de sesión ya no es válido. Puede que ya se haya usado o que haya caducado.',
  'error.MissingCSRF': 'El formulario ha caducado. Vuelve atrás, recarga la página e inténtalo de nuevo.',
  'error.SessionRequired': 'Inicia sesión para ver esta página.',
  'error.RateLimited': 'Demasiados intentos. Espera un poco e inténtalo de nuevo.',
  'error.OAuthSignin': 'No se pudo iniciar la sesión con el proveedor. Inténtalo más tarde.',
  'error.OAuthCallbackError': 'No se pudo completar el inicio de sesión con el proveedor. Inténtalo de nuevo.',
  'error.OAuthUserInfoFailed': 'El proveedor no ha enviado los datos de tu cuenta. Inténtalo de nuevo más tarde.',
  'error.OAuthUserInfoMismatch':
    'Los datos de la cuenta del proveedor no coincidían con el inicio de sesión, así que se ha detenido. Inténtalo de nuevo.',
  'error.OAuthAccountNotLinked':
    'Ya existe una cuenta con este correo. Inicia sesión como lo hiciste antes y después vincula este proveedor.',
  'error.InvalidProvider': 'Este método de inicio de sesión no está disponible.',
  'error.EmailSignInError': 'No se pudo enviar el correo de inicio de sesión. Inténtalo de nuevo más tarde.',
  'error.PasskeyError': 'No se pudo usar la llave de acceso. Inténtalo de nuevo.',
  'error.NotFound': 'No hay ninguna página en esta dirección.',
  'error.Default': 'Algo ha salido mal. Inténtalo de nuevo.',

  'sessions.title': 'Tus sesiones',
  'sessions.unknownDevice': 'Dispositivo desconocido',
  'sessions.thisDevice': '(este dispositivo)',
  'sessions.signedIn': 'Sesión iniciada el {createdAt}; última actividad el {lastActiveAt}',
  'sessions.signedInFrom': 'Sesión iniciada el {createdAt} desde {ip}; última actividad el {lastActiveAt}',
  'sessions.signOutDevice': 'Cerrar sesión en este dispositivo',
  'sessions.signOutSession': 'Cerrar esta sesión',
  'sessions.signOutOthers': 'Cerrar todas las demás sesiones',

  'signUp.title': 'Crear una cuenta',
  'signUp.name': 'Nombre',
  'signUp.button': 'Crear cuenta',
  'signUp.haveAccount': '¿Ya tienes una cuenta? Inicia sesión',

  'forgotPassword.title': 'Contraseña olvidada',
  'forgotPassword.heading': '¿Has olvidado tu contraseña?',
  'forgotPassword.text':
    'Introduce tu dirección de correo electrónico y te enviaremos un enlace para elegir una contraseña nueva.',
  'forgotPassword.button': 'Enviar el enlace',

  'resetPassword.title': 'Elige una contraseña nueva',
  'resetPassword.password': 'Contraseña nueva',
  'resetPassword.button': 'Guardar contraseña',

  'signInToConfirm.title': 'Inicia sesión para confirmar',
  'signInToConfirm.text':
    'Inicia sesión en la cuenta cuya dirección de correo pasará a ser {email}; después volverás aquí para confirmarlo.',
  'signInToConfirm.link': 'Iniciar sesión',

  'checkEmail.title': 'Revisa tu correo',
  'checkEmail.verify':
    'Si la dirección puede recibir correo, va de camino un enlace para confirmarla. Funciona una vez, durante 24 horas.',
  'checkEmail.reset':
    'Si alguna cuenta usa esta dirección, va de camino un enlace para elegir una contraseña nueva. Funciona una vez, durante una hora.',
  'checkEmail.change':
    'Hemos enviado a tu nueva dirección un enlace para confirmarla. Ábrelo con la sesión iniciada en esta cuenta para completar el cambio.',

  'verifyEmail.title': 'Confirma tu dirección de correo',
  'verifyEmail.text': '¿Confirmar esta dirección para tu cuenta?',
  'verifyEmail.button': 'Confirmar',

  'changeEmail.title': 'Cambia tu dirección de correo',
  'changeEmail.text':
    '¿Usar {email} como dirección de correo de la cuenta con la que has iniciado sesión? Si no lo has pedido tú, cierra esta página.',
  'changeEmail.textWithCurrent':
    '¿Usar {email} como dirección de correo de la cuenta con la que has iniciado sesión ({current})? Si no lo has pedido tú, cierra esta página.',
  'changeEmail.button': 'Cambiar mi correo',

  'undoEmailChange.title': 'Deshacer el cambio de correo',
  'undoEmailChange.text':
    '¿Volver a poner {email} como dirección de tu cuenta? Se cierran todas las sesiones y se eliminan todas las formas de acceso (contraseña, cuentas vinculadas, llaves de acceso, claves de API, verificación en dos pasos); después eliges una contraseña nueva.',
  'undoEmailChange.button': 'Deshacer el cambio',

  'magicLink.title': 'Iniciar sesión',
  'magicLink.text': '¿Continuar como {email}?',
  'magicLink.button': 'Iniciar sesión',

  'code.EMAIL_TAKEN': 'Ya existe una cuenta con este correo electrónico',
};
