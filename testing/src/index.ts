/**
 * `@framework/testing`: test helpers for apps built with the kit: an
 * in-process test context with real sessions, mock requests, loader
 * arguments, middleware contexts, queue messages, environment bindings and
 * stateful-object state, a queue-handler adapter and runner configs.
 * Spies are vitest's `vi.fn` (vitest is a peer dependency).
 * @module
 */
export { createTestContext } from './context/create-test-context.js';
export type { TestAppTools, TestContext, TestContextOptions, WithAuthOptions } from './context/types.js';
export { createTestClock, type TestClock } from './context/clock.js';
export {
  createMailbox,
  recordMessages,
  type CapturedMail,
  type Mailbox,
  type MailboxHooks,
  type MailboxOptions,
  type MailInput,
  type MailKind,
  type MailQuery,
} from './mail/mailbox.js';
export { recordRuns, type RunRecorder } from './runs/recorder.js';
export type { FetchApp, FetchHandler, TestApp, TestAppBundle, TestExecutionContext } from './context/app.js';
export type { TestDatabase } from './context/database.js';
export type { TestCookieJar } from './context/cookie-jar.js';
export { createMockRequest, type MockRequestInit } from './mocks/request.js';
export { createMockLoaderArgs, type MockLoaderArgs, type MockLoaderArgsInit } from './mocks/loader-args.js';
export { createMockContext, type MockAuth, type MockContext, type MockContextInit } from './mocks/context.js';
export { createMockMessage, type MockMessage, type MockMessageInit } from './mocks/message.js';
export { createMockEnv, bindingKind, type MockBindingKind, type MockEnvInit } from './env/create-mock-env.js';
export {
  createMockKVNamespace,
  type MockKVNamespace,
  type KVPutOptions,
  type KVListKey,
  type KVListResult,
  type KVValueType,
} from './env/kv.js';
export { createMockQueue, type MockQueue, type QueueSendOptions, type SentMessage } from './env/queue.js';
export {
  createMockDatabase,
  type MockDatabase,
  type MockDatabaseResult,
  type MockPreparedStatement,
} from './env/database.js';
export {
  createMockStatefulObjectState,
  type MockStatefulObjectId,
  type MockStatefulObjectState,
  type MockStatefulObjectStateInit,
} from './stateful/state.js';
export {
  createMockStatefulStorage,
  type MockStatefulStorage,
  type StatefulStorageOperations,
  type StatefulTransaction,
  type StorageListOptions,
} from './stateful/storage.js';
export {
  toQueueHandler,
  type QueueBatchInput,
  type QueueExecutionContext,
  type QueueHandler,
} from './queue-handler.js';
export { defineTestConfig, type TestConfigOptions } from './config/define-test-config.js';
export { edgeGuard, type EdgeGuardOptions } from './config/edge-guard.js';
export {
  testSignInRoute,
  TEST_SIGN_IN_HEADER,
  TEST_SIGN_IN_PATH,
  type TestSignInRouteOptions,
} from './sign-in/route.js';
export { createSignedInSession } from './sign-in/session.js';
export type { BrowserCookie, SignInOptions, SignInResult, SignInTarget } from './sign-in/types.js';
export { currentTotp, type TotpUser } from './two-factor/current-code.js';
export { totpCodeOfKey, totpCodeOfUri, type TotpParameters } from './two-factor/totp-code.js';
export { createTestRuntime, type TestRun, type TestRuntime, type TestRuntimeOptions } from '@framework/trigger/testing';
