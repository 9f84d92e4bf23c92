// Prints one closing line over every test tier: "N passed, N failed, N skipped".
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
for (const tier of ['unit', 'integration']) {
  const file = join(dir, `${tier}.json`);
  if (!existsSync(file)) {
    missing.push(tier);
    continue;
  }
  const r = JSON.parse(readFileSync(file, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + (r.numTodoTests ?? 0);
}
const e2e = join(dir, 'e2e.json');
if (existsSync(e2e)) {
  const s = JSON.parse(readFileSync(e2e, 'utf8')).stats;
  passed += s.expected;
  failed += s.unexpected + (s.flaky ?? 0);
  skipped += s.skipped;
} else {
  missing.push('e2e');
}
if (missing.length) console.log(`(no results from: ${missing.join(', ')})`);
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || missing.length > 0 ? 1 : 0);
