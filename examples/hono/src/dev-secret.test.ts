import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exampleSecret, SECRET_FILE } from './dev-secret.js';

const freshDataDir = () => join(mkdtempSync(join(tmpdir(), 'example-secret-')), '.data');

describe('the example secret', () => {
  it('is generated into a fresh .data/ on first start and kept across restarts', () => {
    const dir = freshDataDir();
    const first = exampleSecret({}, dir);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dir, SECRET_FILE), 'utf8')).toBe(first);
    expect(statSync(join(dir, SECRET_FILE)).mode & 0o077).toBe(0);
    expect(exampleSecret({ NODE_ENV: 'development' }, dir)).toBe(first);
    expect(exampleSecret({}, freshDataDir())).not.toBe(first);
  });

  it('is AUTH_SECRET when set, and then nothing is written', () => {
    const dir = freshDataDir();
    const given = 's'.repeat(40);
    expect(exampleSecret({ AUTH_SECRET: given, NODE_ENV: 'production' }, dir)).toBe(given);
    expect(exampleSecret({ AUTH_SECRET: given }, dir)).toBe(given);
    expect(existsSync(join(dir, SECRET_FILE))).toBe(false);
    expect(() => exampleSecret({ AUTH_SECRET: 'short' }, dir)).toThrow(/at least 32/);
  });

  it('is never generated in production', () => {
    const dir = freshDataDir();
    expect(() => exampleSecret({ NODE_ENV: 'production' }, dir)).toThrow(/AUTH_SECRET is required/);
    expect(existsSync(join(dir, SECRET_FILE))).toBe(false);
  });

  it('refuses a kept file that is too short', () => {
    const dir = freshDataDir();
    exampleSecret({}, dir);
    writeFileSync(join(dir, SECRET_FILE), 'tiny');
    expect(() => exampleSecret({}, dir)).toThrow(/shorter than 32/);
  });
});
