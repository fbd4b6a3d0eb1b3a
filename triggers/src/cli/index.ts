/**
 * `@framework/trigger/cli`: what the `framework` command of `@framework/cli` needs from this package beyond its
 * public API: reading a trigger directory file by file, and checking an `--event` against a source. The command
 * itself lives in `@framework/cli`.
 *
 * @module
 */
export { discoverTriggerFiles, scanTriggerDir, type TriggerDirScan } from '../load.js';
export { eventShapeProblem } from './event-shape.js';
