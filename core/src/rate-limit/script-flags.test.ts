import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ScriptRewriter, scriptSha, stripUnknownScriptFlags } from './script-flags.js';

const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

describe('shebang flags', () => {
  it.each([
    ['#!lua flags=allow-key-locking\nreturn 1', '#!lua\nreturn 1'],
    ['#!lua flags=no-writes,allow-key-locking,allow-stale\nreturn 1', '#!lua flags=no-writes,allow-stale\nreturn 1'],
    ['#!lua flags=no-writes\nreturn 1', '#!lua flags=no-writes\nreturn 1'],
    ['return 1', 'return 1'],
    ['\n#!lua flags=allow-key-locking\nreturn 1', '\n#!lua flags=allow-key-locking\nreturn 1'],
    ['#!lua flags=allow-key-locking', '#!lua'],
  ])('%j → %j', (script, expected) => {
    expect(stripUnknownScriptFlags(script)).toBe(expected);
  });

  it('maps the original SHA1 to the rewritten one once the script was seen', async () => {
    const original = '#!lua flags=allow-key-locking\nreturn 1';
    const rewriter = new ScriptRewriter();
    expect(rewriter.sha(sha1(original))).toBe(sha1(original));
    expect(await rewriter.script(original)).toBe('#!lua\nreturn 1');
    expect(rewriter.sha(sha1(original))).toBe(sha1('#!lua\nreturn 1'));
    expect(rewriter.sha(sha1(original).toUpperCase())).toBe(sha1('#!lua\nreturn 1'));
    expect(await scriptSha('abc')).toBe(sha1('abc'));
  });
});
