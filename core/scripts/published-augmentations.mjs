/**
 * After `tsup`: the built-in plugins add their error codes to `AuthErrorCodes` by augmenting the module that
 * declares it (`declare module '../../error-codes.js'` in the sources). The bundled declaration files keep that
 * relative specifier, which names nothing inside `dist/`; this rewrites it to the package's own name, the module
 * that exports `AuthErrorCodes` to apps, so the codes stay members of `AuthErrorCode` for them too.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const FROM = /declare module '(?:\.\.\/)+error-codes\.js'/g;
/** Any augmentation of the error-code module left with a relative specifier (one this script does not rewrite). */
const LEFT = /declare module '\.{1,2}\/[^']*error-codes\.js'/;
const TO = "declare module '@framework/auth'";

function declarations(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return declarations(path);
    return /\.d\.c?ts$/.test(name) ? [path] : [];
  });
}

let rewritten = 0;
const left = [];
for (const file of declarations(dist)) {
  const text = readFileSync(file, 'utf8');
  const next = text.replace(FROM, TO);
  if (next !== text) {
    writeFileSync(file, next);
    rewritten++;
  }
  if (LEFT.test(next)) left.push(file);
}
if (rewritten === 0)
  throw new Error('published-augmentations: no error-code augmentation found in dist/ (did the build change?)');
if (left.length > 0)
  throw new Error(`published-augmentations: a relative error-code augmentation is left in ${left.join(', ')}`);
console.log(`published-augmentations: ${rewritten} declaration files name @framework/auth`);
