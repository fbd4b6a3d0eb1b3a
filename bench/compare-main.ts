/** `npm run bench:compare`: the side-by-side session-read table alone. */
import { printComparison } from './compare-print.js';

await printComparison();
