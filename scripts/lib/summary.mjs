// Prints one closing line over every test tier: "N passed, N failed, N skipped", after what
// ran the integration tier, which tiers could not run here (not-run-<tier>.txt: why) and which
// were switched off (off-<tier>.txt: how to switch it on). In CI (CI=true) a tier that did not
// run fails the summary; a tier switched off does not.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
// Named at the very end, so a log that keeps only its tail (CI) still says what failed.
const failures = [];
const firstLine = (messages) =>
  String(messages?.[0] ?? '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colour codes
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')[0]
    .slice(0, 200);
const notRun = readdirSync(dir)
  .filter((f) => /^not-run-.+\.txt$/.test(f))
  .map((f) => readFileSync(join(dir, f), 'utf8').trim());
const runtime = join(dir, 'integration-runtime.txt');
if (existsSync(runtime)) console.log(`\nintegration tier: ${readFileSync(runtime, 'utf8').trim()}`);
for (const line of notRun) console.log(`not run here: ${line}`);
const off = readdirSync(dir)
  .filter((f) => /^off-.+\.txt$/.test(f))
  .map((f) => readFileSync(join(dir, f), 'utf8').trim());
for (const line of off) console.log(`switched off: ${line}`);
const ran = (tier) =>
  !existsSync(join(dir, `not-run-${tier}.txt`)) && !existsSync(join(dir, `off-${tier}.txt`));
const tiers = [
  'unit',
  'integration',
  ...(ran('containers') ? ['containers'] : []),
  ...(ran('k8s') ? ['k8s'] : []),
];
// The Kubernetes tier's figures (scripts/test/k8s/harness.ts), one check a line.
const figures = join(dir, 'k8s-figures.txt');
if (existsSync(figures)) {
  console.log('\nKubernetes tier:');
  for (const line of readFileSync(figures, 'utf8').trim().split('\n')) console.log(`  ${line}`);
}
for (const tier of tiers) {
  const file = join(dir, `${tier}.json`);
  if (!existsSync(file)) {
    missing.push(tier);
    continue;
  }
  const r = JSON.parse(readFileSync(file, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  for (const file of r.testResults ?? []) {
    const rel = String(file.name).replace(`${process.cwd()}/`, '');
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failedTests)
      failures.push(`${tier}: ${rel} › ${t.fullName}: ${firstLine(t.failureMessages)}`);
    if (file.status === 'failed' && failedTests.length === 0)
      failures.push(`${tier}: ${rel}: ${firstLine([file.message])}`);
  }
}
const e2eFailures = (suite, path = []) => {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      if (test.status === 'unexpected' || test.status === 'flaky') {
        const error = test.results?.find((x) => x.error)?.error?.message;
        failures.push(
          `e2e${test.status === 'flaky' ? ' (flaky)' : ''}: ${spec.file}:${spec.line} › ${[...path, spec.title].join(' › ')}: ${firstLine([error])}`,
        );
      }
    }
  }
  for (const child of suite.suites ?? [])
    e2eFailures(child, suite.title && !suite.file ? [...path, suite.title] : path);
};
const e2e = join(dir, 'e2e.json');
if (existsSync(e2e)) {
  const report = JSON.parse(readFileSync(e2e, 'utf8'));
  for (const suite of report.suites ?? []) e2eFailures(suite);
  const s = report.stats;
  passed += s.expected;
  failed += s.unexpected + (s.flaky ?? 0);
  skipped += s.skipped;
} else {
  missing.push('e2e');
}
if (missing.length) console.log(`(no results from: ${missing.join(', ')})`);
if (failures.length) console.log(`\nfailed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
const ciMissesTier = process.env.CI === 'true' && notRun.length > 0;
process.exit(failed > 0 || missing.length > 0 || ciMissesTier ? 1 : 0);
