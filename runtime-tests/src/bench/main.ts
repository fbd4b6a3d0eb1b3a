/**
 * Prints this runtime's session-read medians as one JSON line after a marker
 * (what `benchSessionRead` reads back from Node 24).
 * @module
 */
import { sessionReadAll } from './session-read.js';

process.stdout.write(`@@bench ${JSON.stringify(await sessionReadAll())}\n`);
