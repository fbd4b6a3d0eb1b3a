/** The core pages' strings in Japanese. @module */
import type { Messages } from '../catalog.js';
import type { CoreMessageId } from './en.js';

export const ja: Messages<CoreMessageId> = {
  'common.email': 'メールアドレス',
  'common.password': 'パスワード',
  'common.backToSignIn': 'サインインに戻る',

  'signIn.title': 'サインイン',
  'signIn.lastUsed': '前回使用',
  'signIn.withProvider': '{provider}でサインイン',
  'signIn.emailAndPassword': 'メールアドレスとパスワード',
  'signIn.forgotPassword': 'パスワードをお忘れですか？',
  'signIn.createAccount': 'アカウントを作成',

  'signOut.title': 'サインアウト',
  'signOut.question': 'サインアウトしてもよろしいですか？',
  'signOut.button': 'サインアウト',

  'errorPage.title': 'エラー',
  'errorPage.heading': 'サインインの問題',
  'errorPage.forbiddenTitle': 'アクセス権がありません',
  'errorPage.forbiddenHeading': 'このページへのアクセス権がありません',
  'errorPage.signInAnother': '別のアカウントでサインイン',
  'errorPage.notFoundHeading': 'ページが見つかりません',
  'errorPage.home': 'ホームページへ移動',
  'errorPage.retryInOneMinute': '1分後にもう一度お試しください。',
  'errorPage.retryInMinutes': '{minutes}分後にもう一度お試しください。',

  'verifyRequest.title': 'メールを確認してください',
  'verifyRequest.text': 'サインイン用のリンクをメールアドレスに送信しました。',

  'error.CredentialsSignin': 'サインインできませんでした。入力内容を確認して、もう一度お試しください。',
  'error.AccessDenied': 'サインインする権限がありません。',
  'error.Forbidden':
    'お使いのアカウントではこのページを開けません。アクセスが必要な場合は管理者にお問い合わせください。',
  'error.Configuration': 'サーバーの設定に問題があります。しばらくしてからもう一度お試しください。',
  'error.Verification': 'このサインインリンクは無効です。すでに使用されたか、有効期限が切れている可能性があります。',
  'error.MissingCSRF': 'フォームの有効期限が切れました。前のページに戻り、再読み込みしてからもう一度お試しください。',
  'error.SessionRequired': 'このページを表示するにはサインインしてください。',
  'error.RateLimited': '試行回数が多すぎます。少し待ってからもう一度お試しください。',
  'error.OAuthSignin': 'プロバイダーでのサインインを開始できませんでした。しばらくしてからもう一度お試しください。',
  'error.OAuthCallbackError': 'プロバイダーでのサインインを完了できませんでした。もう一度お試しください。',
  'error.OAuthUserInfoFailed':
    'プロバイダーからアカウント情報が送られてきませんでした。しばらくしてからもう一度お試しください。',
  'error.OAuthUserInfoMismatch':
    'プロバイダーのアカウント情報がサインイン内容と一致しなかったため、中止しました。もう一度お試しください。',
  'error.OAuthAccountNotLinked':
    'このメールアドレスのアカウントはすでに存在します。前回と同じ方法でサインインしてから、このプロバイダーを連携してください。',
  'error.InvalidProvider': 'このサインイン方法は利用できません。',
  'error.EmailSignInError': 'サインイン用のメールを送信できませんでした。しばらくしてからもう一度お試しください。',
  'error.PasskeyError': 'パスキーを使用できませんでした。もう一度お試しください。',
  'error.NotFound': 'このアドレスにはページがありません。',
  'error.Default': '問題が発生しました。もう一度お試しください。',

  'sessions.title': 'セッション一覧',
  'sessions.unknownDevice': '不明なデバイス',
  'sessions.thisDevice': '（このデバイス）',
  'sessions.signedIn': '{createdAt}にサインイン、最終アクティブ {lastActiveAt}',
  'sessions.signedInFrom': '{createdAt}に{ip}からサインイン、最終アクティブ {lastActiveAt}',
  'sessions.signOutDevice': 'このデバイスからサインアウト',
  'sessions.signOutSession': 'このセッションを終了',
  'sessions.signOutOthers': '他のすべてのセッションを終了',

  'signUp.title': 'アカウントを作成',
  'signUp.name': '名前',
  'signUp.button': 'アカウントを作成',
  'signUp.haveAccount': 'すでにアカウントをお持ちですか？サインイン',

  'forgotPassword.title': 'パスワードをお忘れの場合',
  'forgotPassword.heading': 'パスワードをお忘れですか？',
  'forgotPassword.text': 'メールアドレスを入力してください。新しいパスワードを設定するためのリンクをお送りします。',
  'forgotPassword.button': 'リンクを送信',

  'resetPassword.title': '新しいパスワードを設定',
  'resetPassword.password': '新しいパスワード',
  'resetPassword.button': 'パスワードを設定',

  'signInToConfirm.title': 'サインインして確認',
  'signInToConfirm.text':
    'メールアドレスを{email}に変更するアカウントにサインインしてください。その後、確認のためにこのページに戻ります。',
  'signInToConfirm.link': 'サインイン',

  'checkEmail.title': 'メールを確認してください',
  'checkEmail.verify':
    'このアドレスでメールを受信できる場合、確認用のリンクが届きます。リンクは1回だけ、24時間有効です。',
  'checkEmail.reset':
    'このアドレスを使うアカウントがある場合、新しいパスワードを設定するリンクが届きます。リンクは1回だけ、1時間有効です。',
  'checkEmail.change':
    '新しいアドレス宛てに確認用のリンクを送信しました。変更を完了するには、このアカウントにサインインした状態でリンクを開いてください。',

  'verifyEmail.title': 'メールアドレスの確認',
  'verifyEmail.text': 'このアドレスをアカウントのメールアドレスとして確認しますか？',
  'verifyEmail.button': '確認する',

  'changeEmail.title': 'メールアドレスの変更',
  'changeEmail.text':
    'サインイン中のアカウントのメールアドレスを{email}にしますか？心当たりがない場合は、このページを閉じてください。',
  'changeEmail.textWithCurrent':
    'サインイン中のアカウント（{current}）のメールアドレスを{email}にしますか？心当たりがない場合は、このページを閉じてください。',
  'changeEmail.button': 'メールアドレスを変更',

  'undoEmailChange.title': 'メールアドレスの変更を取り消す',
  'undoEmailChange.text':
    'アカウントのアドレスを{email}に戻しますか？すべてのセッションが終了し、すべてのサインイン手段（パスワード、連携アカウント、パスキー、APIキー、2要素認証）が削除されます。その後、新しいパスワードを設定します。',
  'undoEmailChange.button': '変更を取り消す',

  'magicLink.title': 'サインイン',
  'magicLink.text': '{email}として続行しますか？',
  'magicLink.button': 'サインイン',

  'code.EMAIL_TAKEN': 'このメールアドレスのアカウントはすでに存在します',
};
