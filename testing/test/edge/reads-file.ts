/** App code that uses a Node-only API by mistake. */
import { readFileSync } from 'node:fs';

export const readConfig = (path: string): string => readFileSync(path, 'utf8');
