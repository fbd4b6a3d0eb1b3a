/**
 * `@framework/trigger`: define event handlers for seven source kinds and run
 * them in-process.
 *
 * @module
 */
export { defineTrigger, isTriggerDefinition, type TriggerDefinitionInput } from './define.js';
export {
  createTriggerRuntime,
  type QueueProducer,
  type ReplaySelector,
  type RequestLog,
  type SendOptions,
  type RuntimeDispatchOptions,
  type TriggerRuntime,
  type TriggerRuntimeOptions,
} from './runtime/create.js';
export type { RuntimeHealth, UnsettledRun } from './runtime/health.js';
export type { RunRecord, RunListener } from './runtime/runs.js';
export type { QueueInspection } from './runtime/inspect.js';
export type { FinishedTriggerRun, RunWaitOptions, TriggerRun } from './runtime/run-api.js';
export type { TriggerStep, TriggerStepKind, TriggerStepStatus } from './runtime/step-records.js';
export type { CleanOptions, RunMethods } from './runtime/run-methods.js';
export type { SendAndWaitOptions } from './runtime/producer.js';
export { memoryEngine, type MemoryEngineOptions } from './engine/memory.js';
export { bullmqEngine, type BullmqEngineOptions } from './engine/bullmq.js';
export type { BullmqConnection } from './engine/bullmq-connection.js';
export { realClock, scaledClock, type EngineClock, type Timer, type TimerKind } from './engine/clock.js';
export type { EventDelivery } from './runtime/step-events.js';
export type { EventWaiter, EventWaits } from './engine/wait-types.js';
export { missedOccurrences, MAX_CATCH_UP, scheduleOf, type CronSchedule } from './cron.js';
export type {
  EngineCallbacks,
  EngineConsumer,
  EngineExternalSource,
  EngineMessage,
  CompletedMessage,
  EngineQueueStats,
  EnginePlan,
  EngineSchedule,
  FailedMessage,
  MessageDisposition,
  OutgoingMessage,
  TriggerEngine,
} from './engine/types.js';
export { createSmtpIngress, type EmailRuntime, type SmtpIngress, type SmtpIngressOptions } from './email/smtp.js';
export type { DispatchEmailOptions, EmailDispatchResult } from './email/dispatch.js';
export type { RawEmail } from './email/parse.js';
export { emailSourceMatches } from './email/match.js';
export { parseObjectNotification, objectSourceMatches, type ObjectNotice } from './objectstore/notification.js';
export type { DispatchObjectOptions, ObjectDispatchResult } from './objectstore/dispatch.js';
export type { ObjectStoreIngressOptions } from './objectstore/ingress.js';
export {
  createLocalBucket,
  type LocalBucket,
  type LocalBucketOptions,
  type LocalObject,
  type LocalObjectInfo,
  type ObjectStoreRuntime,
} from './objectstore/local-bucket.js';
export { installChangeCapture, type ChangeCaptureOptions } from './sqldb/install.js';
export type { ChangeDialect } from './sqldb/dialect.js';
export type { DatabaseBinding, PgListenClient } from './sqldb/consumer.js';
export type { ChangesOptions } from './sqldb/start.js';
export {
  TriggerDefinitionError,
  TriggerError,
  TriggerTimeoutError,
  WebhookVerificationError,
  type TriggerErrorOptions,
} from './errors.js';
export { parseDuration, type Duration } from './duration.js';
export { DEFAULT_LIMITS, type TriggerLimits } from './limits.js';
export { loadTriggersFromDir, type LoadedTriggers } from './load.js';
export type { TraceParent } from './trace.js';
export type * from './types.js';
