import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TriggerDefinitionError } from '../errors.js';
import { loadTriggersFromDir } from '../load.js';
import { scanTriggerDir } from './index.js';

const NIGHTLY = `import { defineTrigger } from '@framework/trigger';
export default defineTrigger({ source: { type: 'scheduled', cron: '0 3 * * *' }, handle: () => {} });
`;
const HOOK = `import { defineTrigger } from '@framework/trigger';
import { customHmacVerifier } from '@framework/trigger/verifiers';
export default defineTrigger({
  source: { type: 'webhook', path: '/h', verifier: customHmacVerifier({ secret: 's', algorithm: 'sha256', header: 'x-sig' }) },
  handle: () => {},
});
`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'triggers-'));
  await writeFile(join(dir, 'nightly.ts'), NIGHTLY);
  await writeFile(join(dir, 'hook.ts'), HOOK);
  await writeFile(join(dir, '_shared.ts'), 'export const helper = true;\n');
  await writeFile(join(dir, 'hook.test.ts'), 'throw new Error("tests are not triggers");\n');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('loadTriggersFromDir', () => {
  it('names triggers after their files and skips helpers and tests', async () => {
    const triggers = await loadTriggersFromDir(dir);
    expect(Object.keys(triggers)).toEqual(['hook', 'nightly']);
    expect(triggers.nightly!.source).toMatchObject({ type: 'scheduled', cron: '0 3 * * *' });
  });

  it('reports a file whose default export is not a trigger, naming the file', async () => {
    await writeFile(join(dir, 'oops.ts'), 'export default { source: {} };\n');
    await expect(loadTriggersFromDir(dir)).rejects.toThrow(
      'oops.ts: the default export is not a defineTrigger(...) result',
    );
  });
});

describe('scanTriggerDir', () => {
  it('loads every file like loadTriggersFromDir when all are valid', async () => {
    const scan = await scanTriggerDir(dir);
    expect(Object.keys(scan.triggers)).toEqual(['hook', 'nightly']);
    expect(scan.files).toEqual({ hook: join(dir, 'hook.ts'), nightly: join(dir, 'nightly.ts') });
    expect(scan.failed).toEqual({});
    expect(scan.triggers.hook!.source).toMatchObject({ type: 'webhook', path: '/h' });
  });

  it('reports each broken file by name and still loads the others', async () => {
    await writeFile(join(dir, 'alpha.ts'), 'export default { source: {} };\n');
    await writeFile(join(dir, 'broken.ts'), 'throw new Error("bad import\\nsecond line");\n');
    await writeFile(join(dir, 'invalid.ts'), NIGHTLY.replace("'0 3 * * *'", "'not a cron'"));
    const scan = await scanTriggerDir(dir);
    expect(Object.keys(scan.triggers)).toEqual(['hook', 'nightly']);
    expect(Object.keys(scan.files)).toEqual(['alpha', 'broken', 'hook', 'invalid', 'nightly']);
    expect(Object.keys(scan.failed)).toEqual(['alpha', 'broken', 'invalid']);
    for (const error of Object.values(scan.failed)) expect(error).toBeInstanceOf(TriggerDefinitionError);
    expect(scan.failed.alpha!.message).toBe('alpha.ts: the default export is not a defineTrigger(...) result');
    expect(scan.failed.broken!.message).toBe('broken.ts: could not load: bad import');
    expect(scan.failed.invalid!.message).toMatch(/^invalid\.ts: could not load: .*cron/);
  });

  it('still refuses two files giving one name: the directory as a whole is ambiguous', async () => {
    await writeFile(join(dir, 'nightly.mjs'), 'export default 1;\n');
    await expect(scanTriggerDir(dir)).rejects.toThrow('two files define the trigger "nightly"');
  });
});
