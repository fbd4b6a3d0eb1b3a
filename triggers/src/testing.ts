/**
 * `@framework/trigger/testing`: events and contexts for unit-testing handlers
 * as `definition.handle(event, ctx)`, and `createTestRuntime` (the runtime on a
 * fake clock). Plain recording objects, no test-runner dependency.
 *
 * @module
 */
export {
  mockEmailEvent,
  mockObjectStoreEvent,
  mockScheduledEvent,
  mockSqlDbEvent,
  mockTailEvent,
  mockWebhookEvent,
  type MockWebhookEventInit,
} from './testing/events.js';
export {
  mockQueueEvent,
  mockQueueMessage,
  type MockMessageCall,
  type MockQueueEvent,
  type MockQueueMessage,
  type MockQueueMessageInit,
} from './testing/queue.js';
export { mockTriggerContext, type MockTriggerContext, type MockTriggerContextInit } from './testing/context.js';
export { createTestRuntime, type TestRun, type TestRuntime, type TestRuntimeOptions } from './testing/runtime.js';
export { fakeClock, type FakeClock } from './engine/fake-clock.js';
