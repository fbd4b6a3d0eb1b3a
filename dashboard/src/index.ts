/**
 * `@framework/dashboard`: a server-rendered dashboard of trigger runs,
 * queues and dead letters, and auth activity, as one Web Request → Response
 * handler mounted by the adapters at `/_framework`.
 *
 * @module
 */
export {
  createDashboard,
  dashboardOf,
  type Dashboard,
  type DashboardOptions,
  type DashboardRequestInfo,
  type DashboardRuntime,
} from './dashboard.js';
export type { DashboardAuth } from './access.js';
export { createRunHistory, type RunHistory, type RunHistoryOptions, type Throughput } from './history.js';
export { createSqlRunStore, type RunStore, type SqlRunStoreOptions } from './run-store.js';
export type { AuthActivitySources, AuditEntry, AuditFilter, RateLimitRefusal } from './auth-activity.js';
export { authActivityOf } from './auth-plugins.js';
export { nextOccurrences } from './schedule.js';
export { isLoopbackAddress, isLoopbackHost } from './loopback.js';
