/**
 * The core pages' strings in English: the source of truth every other language is checked against (same keys,
 * same `{placeholders}`).
 * @module
 */
export const en = {
  'common.email': 'Email',
  'common.password': 'Password',
  'common.backToSignIn': 'Back to sign in',

  'signIn.title': 'Sign in',
  'signIn.lastUsed': 'Last used',
  'signIn.withProvider': 'Sign in with {provider}',
  'signIn.emailAndPassword': 'Email and password',
  'signIn.forgotPassword': 'Forgot password?',
  'signIn.createAccount': 'Create an account',

  'signOut.title': 'Sign out',
  'signOut.question': 'Are you sure you want to sign out?',
  'signOut.button': 'Sign out',

  'errorPage.title': 'Error',
  'errorPage.heading': 'Sign-in problem',
  'errorPage.forbiddenTitle': 'No access',
  'errorPage.forbiddenHeading': "You don't have access",
  'errorPage.signInAnother': 'Sign in with another account',
  'errorPage.notFoundHeading': 'Page not found',
  'errorPage.home': 'Go to the home page',
  'errorPage.retryInOneMinute': 'Try again in 1 minute.',
  'errorPage.retryInMinutes': 'Try again in {minutes} minutes.',

  'verifyRequest.title': 'Check your email',
  'verifyRequest.text': 'A sign-in link has been sent to your email address.',

  'error.CredentialsSignin': 'Sign in failed. Check the details you entered and try again.',
  'error.AccessDenied': 'You do not have permission to sign in.',
  'error.Forbidden': 'Your account cannot open this page. Ask an administrator if you need access.',
  'error.Configuration': 'There is a problem with the server configuration. Try again later.',
  'error.Verification': 'The sign-in link is no longer valid. It may have been used already or it may have expired.',
  'error.MissingCSRF': 'Your form expired. Go back, reload the page and try again.',
  'error.SessionRequired': 'Please sign in to view this page.',
  'error.RateLimited': 'Too many attempts. Wait a little and try again.',
  'error.OAuthSignin': 'Could not start the sign-in with the provider. Try again later.',
  'error.OAuthCallbackError': 'The sign-in with the provider could not be completed. Please try again.',
  'error.OAuthUserInfoFailed': 'The provider did not send your account details. Please try again later.',
  'error.OAuthUserInfoMismatch':
    'The account details from the provider did not match the sign-in, so it was stopped. Please try again.',
  'error.OAuthAccountNotLinked':
    'An account with this email already exists. Sign in the way you did before, then link this provider.',
  'error.InvalidProvider': 'This sign-in method is not available.',
  'error.EmailSignInError': 'The sign-in email could not be sent. Please try again later.',
  'error.PasskeyError': 'The passkey could not be used. Please try again.',
  'error.NotFound': 'There is no page at this address.',
  'error.Default': 'Something went wrong. Please try again.',

  'sessions.title': 'Your sessions',
  'sessions.unknownDevice': 'Unknown device',
  'sessions.thisDevice': '(this device)',
  'sessions.signedIn': 'Signed in {createdAt}; last active {lastActiveAt}',
  'sessions.signedInFrom': 'Signed in {createdAt} from {ip}; last active {lastActiveAt}',
  'sessions.signOutDevice': 'Sign out this device',
  'sessions.signOutSession': 'Sign out this session',
  'sessions.signOutOthers': 'Sign out all other sessions',

  'signUp.title': 'Create an account',
  'signUp.name': 'Name',
  'signUp.button': 'Create account',
  'signUp.haveAccount': 'Already have an account? Sign in',

  'forgotPassword.title': 'Forgot password',
  'forgotPassword.heading': 'Forgot your password?',
  'forgotPassword.text': 'Enter your email address and we will send you a link to choose a new password.',
  'forgotPassword.button': 'Send the link',

  'resetPassword.title': 'Choose a new password',
  'resetPassword.password': 'New password',
  'resetPassword.button': 'Set password',

  'signInToConfirm.title': 'Sign in to confirm',
  'signInToConfirm.text': 'Sign in to the account whose email address becomes {email}; you come back here to confirm.',
  'signInToConfirm.link': 'Sign in',

  'checkEmail.title': 'Check your email',
  'checkEmail.verify':
    'If the address can receive mail, a link to confirm it is on its way. It works once, for 24 hours.',
  'checkEmail.reset':
    'If an account uses this address, a link to choose a new password is on its way. It works once, for one hour.',
  'checkEmail.change':
    'A link to confirm your new address is on its way to it. Open it while signed in to this account to make the change.',

  'verifyEmail.title': 'Confirm your email address',
  'verifyEmail.text': 'Confirm this address for your account?',
  'verifyEmail.button': 'Confirm',

  'changeEmail.title': 'Change your email address',
  'changeEmail.text':
    'Use {email} as the email address of the account you are signed in to? If you did not ask for this, close this page.',
  'changeEmail.textWithCurrent':
    'Use {email} as the email address of the account you are signed in to ({current})? If you did not ask for this, close this page.',
  'changeEmail.button': 'Change my email',

  'undoEmailChange.title': 'Undo the email change',
  'undoEmailChange.text':
    'Put {email} back as the address of your account? Every session ends and every way in is removed (password, linked accounts, passkeys, API keys, two-factor); you choose a new password next.',
  'undoEmailChange.button': 'Undo the change',

  'magicLink.title': 'Sign in',
  'magicLink.text': 'Continue as {email}?',
  'magicLink.button': 'Sign in',

  'code.EMAIL_TAKEN': 'An account with this email already exists',
} as const;

/** A message id of the core pages. */
export type CoreMessageId = keyof typeof en;
