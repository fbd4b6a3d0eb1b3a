/**
 * Each plugin is its own subpath: an app that does not import one neither loads nor bundles it or its
 * dependencies. Checked on esbuild's metafile of real bundles (dependencies kept external, so each import of a
 * package shows up by name).
 */
import { build, type Metafile } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../', import.meta.url));

/** Bundles `code` (ESM, Node) and returns the core source files it pulled in and the packages it imports. */
async function bundle(code: string): Promise<{ files: string[]; packages: string[] }> {
  const result = await build({
    stdin: { contents: code, resolveDir: src, loader: 'ts', sourcefile: 'app.ts' },
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    treeShaking: true,
    logLevel: 'silent',
  });
  const meta: Metafile = result.metafile;
  const files = Object.keys(meta.inputs).map((p) => p.replace(/\\/g, '/'));
  const packages = Object.values(meta.outputs)
    .flatMap((o) => o.imports)
    .filter((i) => i.external)
    .map((i) => i.path);
  return { files, packages: [...new Set(packages)].sort() };
}

const PLUGINS = {
  'two-factor': { entry: './plugins/two-factor/index.ts', name: 'twoFactor', deps: ['@oslojs/otp', 'uqr'] },
  'api-keys': { entry: './plugins/api-keys/index.ts', name: 'apiKeys', deps: [] as string[] },
  jwt: { entry: './plugins/jwt/index.ts', name: 'jwt', deps: [] as string[] },
  captcha: { entry: './plugins/captcha/index.ts', name: 'captcha', deps: [] as string[] },
  'have-i-been-pwned': { entry: './plugins/have-i-been-pwned/index.ts', name: 'haveIBeenPwned', deps: [] as string[] },
  'email-otp': { entry: './plugins/email-otp/index.ts', name: 'emailOTP', deps: [] as string[] },
  username: { entry: './plugins/username/index.ts', name: 'username', deps: [] as string[] },
  'multi-session': { entry: './plugins/multi-session/index.ts', name: 'multiSession', deps: [] as string[] },
  'one-tap': { entry: './plugins/one-tap/index.ts', name: 'oneTap', deps: [] as string[] },
  sso: {
    entry: './plugins/sso/index.ts',
    name: 'sso',
    deps: ['@node-saml/node-saml', '@xmldom/xmldom', 'xpath', 'ipaddr.js'],
  },
  'oidc-provider': { entry: './plugins/oidc-provider/index.ts', name: 'oidcProvider', deps: [] as string[] },
  'phone-number': { entry: './plugins/phone-number/index.ts', name: 'phoneNumber', deps: ['libphonenumber-js/max'] },
  'last-login-method': { entry: './plugins/last-login-method/index.ts', name: 'lastLoginMethod', deps: [] as string[] },
};

describe('plugin tree-shaking (esbuild metafile)', () => {
  it('an app on the main entry bundles no plugin and none of their dependencies', async () => {
    const { files, packages } = await bundle(
      `import { createAuth, credentials } from './index.ts'; console.log(createAuth, credentials);`,
    );
    expect(files.some((f) => f.includes('index.ts'))).toBe(true);
    for (const dir of Object.keys(PLUGINS))
      expect(files.filter((f) => f.includes(`plugins/${dir}/`))).toStrictEqual([]);
    expect(packages).not.toContain('@oslojs/otp');
    expect(packages).not.toContain('uqr');
    for (const p of Object.values(PLUGINS)) for (const dep of p.deps) expect(packages).not.toContain(dep);
  });

  it.each(Object.entries(PLUGINS))('importing %s bundles it, with its dependencies', async (dir, p) => {
    const { files, packages } = await bundle(`import { ${p.name} } from '${p.entry}'; console.log(${p.name});`);
    expect(files.some((f) => f.includes(`plugins/${dir}/`))).toBe(true);
    for (const dep of p.deps) expect(packages).toContain(dep);
    for (const [other, q] of Object.entries(PLUGINS)) {
      if (other === dir) continue;
      expect(files.filter((f) => f.includes(`plugins/${other}/`))).toStrictEqual([]);
      for (const dep of q.deps) expect(packages).not.toContain(dep);
    }
  });
});
