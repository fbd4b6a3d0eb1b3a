import { existsSync, readFileSync, rmSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';
import { SKIPPED_SERVICES_FILE, START_COMMANDS, type Service } from '../test-support/services.js';

/**
 * Prints one plain closing line, `N passed, N failed` (and `, N skipped`
 * when any were skipped), which CI reads. Before it, when suites were
 * skipped because a service was missing (outside CI only: under CI=true
 * they fail), one line per service names what was skipped and the command
 * that starts it. Vitest's own summary stays above.
 */
export default class SummaryReporter implements Reporter {
  onInit(): void {
    rmSync(SKIPPED_SERVICES_FILE, { force: true });
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A module that failed to load has no tests but must still count as a failure.
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed++;
    }
    failed += unhandledErrors.length;
    const services = skippedServices();
    for (const [service, what] of services) {
      process.stdout.write(
        `\nSKIPPED (${service} missing): ${[...what].join('; ')}\n  start it: ${START_COMMANDS[service]}\n`,
      );
    }
    const tail = skipped > 0 ? `, ${skipped} skipped` : '';
    process.stdout.write(`\n${passed} passed, ${failed} failed${tail}\n`);
  }
}

/** The services noted as missing during this run, each with the suites that skipped. */
function skippedServices(): Map<Service, Set<string>> {
  const out = new Map<Service, Set<string>>();
  if (!existsSync(SKIPPED_SERVICES_FILE)) return out;
  for (const line of readFileSync(SKIPPED_SERVICES_FILE, 'utf8').split('\n')) {
    if (!line) continue;
    const { service, what } = JSON.parse(line) as { service: Service; what: string };
    if (!out.has(service)) out.set(service, new Set());
    out.get(service)!.add(what);
  }
  return out;
}
