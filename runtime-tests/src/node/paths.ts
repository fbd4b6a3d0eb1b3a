/**
 * Paths shared by the runtime-test launchers.
 * @module
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (where tsx and the workspaces resolve). */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
