// ESM consumer: every entry point of every package loads through `import`.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

const { both, esmOnly } = JSON.parse(await readFile(new URL('./entries.json', import.meta.url), 'utf8'));
for (const entry of [...both, ...esmOnly]) {
  const mod = await import(entry);
  assert.ok(Object.keys(mod).length > 0, `${entry} exports nothing`);
}
console.log(`import: ${both.length + esmOnly.length} entry points load`);
