import { createRequire } from 'node:module';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TriggerError } from './errors.js';
import { importPeer } from './optional-peer.js';

/** Node's own "not found" error for `name`, from a folder with no node_modules. */
const requireFromNowhere = createRequire(join(mkdtempSync(join(tmpdir(), 'no-peers-')), 'x.js'));

describe('importPeer', () => {
  it('turns a missing optional peer into MISSING_DEPENDENCY with the install command', async () => {
    const error = await importPeer('bullmq', async () => requireFromNowhere('bullmq')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TriggerError);
    expect(error).toMatchObject({ code: 'MISSING_DEPENDENCY', retryable: false, context: { dependency: 'bullmq' } });
    expect((error as Error).message).toContain('npm install bullmq');
    expect((error as Error).message).toContain('bullmqEngine');
  });

  it('passes other failures through untouched (a broken install is not a missing one)', async () => {
    const inner = await importPeer('jiti', async () => requireFromNowhere('something-jiti-needs')).catch(
      (e: unknown) => e,
    );
    expect(inner).not.toBeInstanceOf(TriggerError);
    expect(inner).toMatchObject({ code: 'MODULE_NOT_FOUND' });
    const boom = new TypeError('boom');
    await expect(importPeer('redis', () => Promise.reject(boom))).rejects.toBe(boom);
  });

  it('returns the module when it is installed', async () => {
    const jiti = await importPeer('jiti', () => import('jiti'));
    expect(typeof jiti.createJiti).toBe('function');
  });
});
