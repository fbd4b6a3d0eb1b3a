/**
 * Command-line runner for Node (used to run the suite under Node 24): reads
 * a {@link RunRequest} as JSON from argv[2] and prints the report as one
 * JSON line after {@link REPORT_MARKER}.
 * @module
 */
import { runSuite, type RunRequest } from '../run.js';

/** Prefix of the report line, so stray output never breaks parsing. */
export const REPORT_MARKER = '@@runtime-report ';

const request = JSON.parse(process.argv[2] ?? '{}') as RunRequest;
const report = await runSuite(request);
process.stdout.write(`${REPORT_MARKER}${JSON.stringify(report)}\n`);
