/**
 * Helpers of the deployment tests: the tools built by scripts/tools.sh (helm, kustomize,
 * kubeconform, k6, a Python venv with PyYAML and kubernetes-validate), rendering, strict
 * offline schema validation, and small accessors for rendered Kubernetes objects.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../lib/paths.ts';

export const TOOLS = join(repoRoot, '.tools');
export const BIN = {
  helm: join(TOOLS, 'bin/helm'),
  kustomize: join(TOOLS, 'bin/kustomize'),
  kubeconform: join(TOOLS, 'bin/kubeconform'),
  k6: join(TOOLS, 'bin/k6'),
  python: join(TOOLS, 'py/bin/python'),
  schemathesis: join(TOOLS, 'py/bin/st'),
};
/** The Kubernetes version the manifests are validated against (scripts/tools.sh). */
export const KUBERNETES_VERSION = '1.37.0';
export const CHART = join(repoRoot, 'charts/parley');

/** Tools missing on this machine (scripts/prereqs.sh builds them before `pnpm test`). */
export function missingTools(names: (keyof typeof BIN)[]): string[] {
  const missing: string[] = names.filter((n) => !existsSync(BIN[n])).map((n) => BIN[n]);
  if (
    names.includes('kubeconform') &&
    !existsSync(join(TOOLS, `kubeconform-schemas/v${KUBERNETES_VERSION}-standalone-strict`))
  ) {
    missing.push(`kubeconform schemas for ${KUBERNETES_VERSION}`);
  }
  return missing;
}

/** Fails at once, naming the command, when a tool is missing: these tests never skip. */
export function toolsGate(names: (keyof typeof BIN)[]): { skip: false } {
  const missing = missingTools(names);
  if (missing.length)
    throw new Error(`deployment tools missing (${missing.join(', ')}): run bash scripts/tools.sh`);
  return { skip: false };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function run(
  cmd: string,
  args: string[],
  opts: { input?: string; env?: Record<string, string>; cwd?: string } = {},
): RunResult {
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd ?? repoRoot,
    input: opts.input,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, ...opts.env },
  });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function mustRun(cmd: string, args: string[], opts: { input?: string } = {}): string {
  const r = run(cmd, args, opts);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.code}):\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** A rendered object: free-form JSON, read through optional chaining in the tests. */
// biome-ignore lint/suspicious/noExplicitAny: rendered Kubernetes objects are free-form JSON
type Json = any;
export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; [k: string]: Json };
  [k: string]: Json;
};

/** Parses a multi-document YAML stream (PyYAML, strict safe_load) into objects. */
export function parseYamlStream(text: string): K8sObject[] {
  const json = mustRun(
    BIN.python,
    [
      '-c',
      'import sys, json, yaml; print(json.dumps([d for d in yaml.safe_load_all(sys.stdin) if d is not None]))',
    ],
    { input: text },
  );
  return JSON.parse(json) as K8sObject[];
}

export interface Rendered {
  yaml: string;
  objects: K8sObject[];
}

/** `helm template` of the chart with extra arguments (values files, --set ...). */
export function helmTemplate(args: string[] = [], release = 'parley'): Rendered {
  const yaml = mustRun(BIN.helm, ['template', release, CHART, '--namespace', 'parley', ...args]);
  return { yaml, objects: parseYamlStream(yaml) };
}

export function helmTemplateFails(args: string[]): string {
  const r = run(BIN.helm, ['template', 'parley', CHART, ...args]);
  if (r.code === 0) throw new Error(`helm template ${args.join(' ')} unexpectedly succeeded`);
  return r.stderr;
}

/** `kustomize build` of a directory under k8s/. */
export function kustomizeBuild(dir: string): Rendered {
  const yaml = mustRun(BIN.kustomize, ['build', join(repoRoot, 'k8s', dir)]);
  return { yaml, objects: parseYamlStream(yaml) };
}

const SCHEMA_LOCATIONS = [
  join(
    TOOLS,
    'kubeconform-schemas/{{.NormalizedKubernetesVersion}}-standalone{{.StrictSuffix}}/{{.ResourceKind}}{{.KindSuffix}}.json',
  ),
  // CRDs the chart may render (ServiceMonitor): strict subsets kept in the repository.
  join(repoRoot, 'scripts/test/schemas/{{.ResourceKind}}{{.KindSuffix}}.json'),
];

export interface Validation {
  ok: boolean;
  valid: number;
  invalid: number;
  errors: number;
  skipped: number;
  messages: string[];
}

/**
 * Strict offline validation with kubeconform (unknown fields are errors, a kind without a
 * schema is an error, nothing is fetched).
 */
export function kubeconform(yaml: string): Validation {
  const args = ['-strict', '-summary', '-output', 'json', '-kubernetes-version', KUBERNETES_VERSION];
  for (const location of SCHEMA_LOCATIONS) args.push('-schema-location', location);
  const r = run(BIN.kubeconform, [...args, '-'], { input: yaml });
  const out = JSON.parse(r.stdout) as {
    resources: { kind: string; name: string; status: string; msg: string }[];
    summary: { valid: number; invalid: number; errors: number; skipped: number };
  };
  const s = out.summary;
  return {
    ok: r.code === 0 && s.invalid === 0 && s.errors === 0 && s.skipped === 0,
    ...s,
    messages: out.resources.map((x) => `${x.kind}/${x.name}: ${x.status} ${x.msg}`),
  };
}

/** Second, independent validator: kubernetes-validate --strict (its own bundled schemas). */
export function kubernetesValidate(yaml: string): RunResult {
  const dir = mkdtempSync(join(tmpdir(), 'parley-kv-'));
  try {
    const file = join(dir, 'manifests.yaml');
    writeFileSync(file, yaml);
    return run(join(TOOLS, 'py/bin/kubernetes-validate'), [
      '--strict',
      '--quiet',
      '--no-warn',
      '-k',
      KUBERNETES_VERSION,
      file,
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ----- accessors ------------------------------------------------------------------------------

export const ofKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);

export function podSpecOf(o: K8sObject) {
  return o.spec?.template?.spec;
}

/** Deployments' and Jobs' containers with their pod. */
export function workloads(objects: K8sObject[]) {
  return objects.filter((o) => ['Deployment', 'Job', 'StatefulSet'].includes(o.kind));
}

/** Every env var name a container gets from its env list and from ConfigMaps it loads. */
export function envOf(container: K8sObject, objects: K8sObject[]): Record<string, string | { from: string }> {
  const out: Record<string, string | { from: string }> = {};
  for (const src of container.envFrom ?? []) {
    if (src.configMapRef) {
      const cm = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === src.configMapRef.name);
      if (!cm) throw new Error(`ConfigMap ${src.configMapRef.name} referenced but not rendered`);
      Object.assign(out, cm.data ?? {});
    }
  }
  for (const e of container.env ?? []) {
    out[e.name] = e.value ?? { from: JSON.stringify(e.valueFrom) };
  }
  return out;
}

/**
 * Services that exist: services/<name>/src/main.ts committed to git (kit and contracts are
 * libraries; a service still being written in a working tree does not count until committed).
 * Without git (an exported tree), the files on disk.
 */
export function workspaceServices(): string[] {
  const git = spawnSync('git', ['ls-files', '--', 'services/*/src/main.ts'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (git.status === 0 && git.stdout.trim()) {
    return git.stdout
      .trim()
      .split('\n')
      .map((p) => p.split('/')[1]!)
      .sort();
  }
  const dir = join(repoRoot, 'services');
  return readdirSync(dir)
    .filter((name) => existsSync(join(dir, name, 'src/main.ts')))
    .sort();
}
