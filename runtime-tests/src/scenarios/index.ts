/**
 * The shared suite: every scenario, in the order they run.
 * @module
 */
import type { Scenario } from '../scenario.js';
import { authScenarios } from './auth.js';
import { crossScenarios } from './cross.js';
import { cryptoScenarios } from './crypto.js';
import { passwordScenarios } from './password.js';
import { rateLimitScenarios } from './rate-limit.js';
import { rbacScenarios } from './rbac.js';
import { tenantScenarios } from './tenant.js';
import { triggerScenarios } from './triggers.js';
import { verifierScenarios } from './verifiers.js';

/** The main suite: each runtime runs it on its own. */
export const mainScenarios: readonly Scenario[] = [
  ...cryptoScenarios,
  ...passwordScenarios,
  ...authScenarios,
  ...rbacScenarios,
  ...tenantScenarios,
  ...rateLimitScenarios,
  ...triggerScenarios,
  ...verifierScenarios,
];

/** Run second, with the artifacts of the other runtimes. */
export { crossScenarios };

/** Which suite a runner runs. */
export type SuiteName = 'main' | 'cross';

/** The scenarios of a suite. */
export const suites: Readonly<Record<SuiteName, readonly Scenario[]>> = { main: mainScenarios, cross: crossScenarios };
