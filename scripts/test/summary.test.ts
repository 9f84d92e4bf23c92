/**
 * scripts/lib/summary.mjs, the closing line of `pnpm test`: the Kubernetes tier counts like
 * the others, a machine without a cluster names it as not run (and CI fails on that), a tier
 * switched off is named but not counted, and the tier's figures are repeated at the end.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../lib/paths.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const vitestJson = (passed: number, failed = 0) =>
  JSON.stringify({ numPassedTests: passed, numFailedTests: failed, numPendingTests: 0, numTodoTests: 0 });

function results(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-summary-'));
  dirs.push(dir);
  const base = {
    'unit.json': vitestJson(10),
    'integration.json': vitestJson(5),
    'containers.json': vitestJson(2),
    'e2e.json': JSON.stringify({ stats: { expected: 3, unexpected: 0, flaky: 0, skipped: 0 } }),
  };
  for (const [name, text] of Object.entries({ ...base, ...files })) writeFileSync(join(dir, name), text);
  return dir;
}

function summary(dir: string, ci: boolean) {
  const r = spawnSync(process.execPath, [join(repoRoot, 'scripts/lib/summary.mjs'), dir], {
    encoding: 'utf8',
    env: { ...process.env, CI: ci ? 'true' : '' },
  });
  return { code: r.status, out: r.stdout };
}

describe('the test summary and the Kubernetes tier', () => {
  it('counts the tier and repeats its figures', () => {
    const dir = results({
      'k8s.json': vitestJson(4),
      'k8s-figures.txt': 'after install: 9/9 pods Ready, restarts 0\nhelm rollback --wait: 60.0 s\n',
    });
    const r = summary(dir, true);
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      'Kubernetes tier:\n  after install: 9/9 pods Ready, restarts 0\n  helm rollback --wait: 60.0 s',
    );
    expect(r.out).toContain('24 passed, 0 failed, 0 skipped');
  });

  it('names the tier as not run, and why; CI fails on it', () => {
    const dir = results({ 'not-run-k8s.txt': 'k8s: no cluster: KUBECONFIG is not set' });
    expect(summary(dir, false)).toMatchObject({ code: 0 });
    const ci = summary(dir, true);
    expect(ci.out).toContain('not run here: k8s: no cluster: KUBECONFIG is not set');
    expect(ci.code).toBe(1);
  });

  it('leaves the tier out when it is switched off (PARLEY_K8S_TIER=0): CI passes', () => {
    const dir = results({ 'off-k8s.txt': 'k8s: switched off (PARLEY_K8S_TIER=0)' });
    const ci = summary(dir, true);
    expect(ci.out).toContain('switched off: k8s: switched off (PARLEY_K8S_TIER=0)');
    expect(ci.out).not.toContain('no results from');
    expect(ci.out).toContain('20 passed, 0 failed, 0 skipped');
    expect(ci.code).toBe(0);
  });

  it('fails when the tier ran but left no results, or failed a test', () => {
    expect(summary(results({}), false).out).toContain('(no results from: k8s)');
    expect(summary(results({}), false).code).toBe(1);
    expect(summary(results({ 'k8s.json': vitestJson(3, 1) }), false).code).toBe(1);
  });
});
