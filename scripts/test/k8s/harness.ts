/**
 * The Kubernetes tier's shared helpers (`pnpm test:k8s`, scripts/test/k8s/*.test.ts): kubectl
 * and helm, namespaces, the chart's values for this cluster, waiting for rollouts and pods,
 * the gateway's URL (NodePort or port-forward), an admin session, the sink inside the cluster
 * (mail and traces), a steady request loop, and the figures each check prints.
 *
 * The cluster and the images come from global-setup.ts, through the environment:
 *   KUBECONFIG               the cluster (the local one of scripts/k8s/cluster.sh, or yours)
 *   PARLEY_K8S_KUBECTL       kubectl to use (default: kubectl on PATH)
 *   PARLEY_K8S_HELM          helm to use (default: helm on PATH)
 *   PARLEY_K8S_NODE_ADDRESS  where NodePorts answer (local cluster: 127.0.0.1)
 *   PARLEY_K8S_GATEWAY       nodeport (default) | port-forward: how tests reach the gateway
 *   PARLEY_IMAGE_PREFIX      images <prefix>/<process>:<tag> (default parley)
 *   PARLEY_IMAGE_TAG         their tag (default dev)
 *   PARLEY_IMAGE_NEXT_TAG    a second tag of the same images, for `helm upgrade` to a new tag
 *   PARLEY_POSTGRES_IMAGE, PARLEY_NATS_IMAGE   the bundled dependencies' images
 * Every wait here is for a condition, with a deadline that names what did not happen.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@parley/kit/local';
import { repoRoot } from '../../lib/paths.ts';

export const PROCESSES = ['gateway', 'identity', 'booking', 'blog', 'voice', 'email', 'settings'] as const;
export type ProcessName = (typeof PROCESSES)[number];
export const SERVICES = PROCESSES.filter((p) => p !== 'gateway');
export const CHART = join(repoRoot, 'charts/parley');
export const ADMIN = { email: 'admin@parley.k8s.test', password: 'k8s-tier-admin-password-1' };

const env = process.env;
export const IMAGES = {
  prefix: env.PARLEY_IMAGE_PREFIX ?? 'parley',
  tag: env.PARLEY_IMAGE_TAG ?? 'dev',
  nextTag: env.PARLEY_IMAGE_NEXT_TAG ?? `${env.PARLEY_IMAGE_TAG ?? 'dev'}-next`,
  postgres: env.PARLEY_POSTGRES_IMAGE ?? 'parley-local/postgres:18',
  nats: env.PARLEY_NATS_IMAGE ?? 'parley-local/nats:2.10.27',
};
export const imageOf = (p: ProcessName, tag = IMAGES.tag) => `${IMAGES.prefix}/${p}:${tag}`;

// ----- commands ---------------------------------------------------------------------------------

export interface Result {
  code: number;
  out: string;
  err: string;
  ms: number;
}

/** Runs a command without blocking the event loop (a request loop may be running meanwhile). */
export function run(
  cmd: string,
  args: string[],
  opts: { input?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<Result> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: repoRoot, env: { ...process.env, ...opts.env } });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`${cmd}: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : -1), out: out.trim(), err: err.trim(), ms: Date.now() - t0 });
    });
    child.stdin.end(opts.input ?? '');
  });
}

const KUBECTL = env.PARLEY_K8S_KUBECTL ?? 'kubectl';
const HELM = env.PARLEY_K8S_HELM ?? 'helm';

export const kubectl = (args: string[], opts: { input?: string; timeoutMs?: number } = {}) =>
  run(KUBECTL, args, opts);
export const helm = (args: string[], opts: { timeoutMs?: number } = {}) => run(HELM, args, opts);

/** kubectl that must succeed: its output, or an error naming the command and its stderr. */
export async function kubectlOk(args: string[], opts: { input?: string; timeoutMs?: number } = {}) {
  const r = await kubectl(args, opts);
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.code}): ${r.err || r.out}`);
  return r.out;
}

// biome-ignore lint/suspicious/noExplicitAny: Kubernetes objects are free-form JSON
export type Json = any;
export async function kubectlJson(args: string[]): Promise<Json> {
  return JSON.parse(await kubectlOk([...args, '-o', 'json']));
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it returns a value (not undefined); fails naming `what` at the deadline. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  intervalMs = 1000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(
        `${what}: not within ${Math.round(timeoutMs / 1000)} s${last ? ` (last: ${last})` : ''}`,
      );
    await sleep(intervalMs);
  }
}

// ----- figures ----------------------------------------------------------------------------------

/** Prints one check's figure ("k8s: <check>: <figure>") and keeps it for the test summary. */
export function figure(check: string, text: string): void {
  const line = `${check}: ${text}`;
  console.log(`k8s: ${line}`);
  if (env.PARLEY_TEST_RESULTS_DIR)
    appendFileSync(join(env.PARLEY_TEST_RESULTS_DIR, 'k8s-figures.txt'), `${line}\n`);
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// ----- namespaces -------------------------------------------------------------------------------

/**
 * A namespace of its own for a test file (an old one of the same name, from a kept run, goes
 * first), enforcing the restricted Pod Security Standard: the API server admits only pods
 * that run as non-root, without privilege escalation or capabilities, with a seccomp profile.
 */
export async function freshNamespace(name: string): Promise<string> {
  await deleteNamespace(name);
  const labels = {
    'pod-security.kubernetes.io/enforce': 'restricted',
    'pod-security.kubernetes.io/warn': 'restricted',
  };
  await kubectlOk(['create', '-f', '-'], {
    input: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } }),
  });
  // Pods cannot be created before the namespace's default ServiceAccount exists.
  await waitFor(
    'the default ServiceAccount',
    async () =>
      (await kubectl(['-n', name, 'get', 'serviceaccount', 'default'])).code === 0 ? true : undefined,
    60_000,
  );
  return name;
}

/** Deletes a namespace and waits until it is gone (its PVCs' volumes with it). */
export async function deleteNamespace(name: string): Promise<void> {
  await kubectl(['delete', 'namespace', name, '--ignore-not-found', '--wait=true', '--timeout=300s'], {
    timeoutMs: 320_000,
  });
}

/** Leaves the namespace for a look after the run when PARLEY_K8S_KEEP=1. */
export async function cleanup(ns: string): Promise<void> {
  if (env.PARLEY_K8S_KEEP === '1') {
    console.log(`k8s: kept namespace ${ns} (PARLEY_K8S_KEEP=1)`);
    return;
  }
  await deleteNamespace(ns);
}

// ----- pods and workloads -----------------------------------------------------------------------

export interface PodState {
  name: string;
  component: string;
  phase: string;
  ready: boolean;
  restarts: number;
  images: string[];
  uid: string;
  deleting: boolean;
}

const componentOf = (labels: Record<string, string> = {}) =>
  labels['app.kubernetes.io/component'] ?? labels['app.kubernetes.io/name'] ?? labels.app ?? '?';

/** The namespace's pods (Jobs' pods left out unless `jobs`). */
export async function pods(
  ns: string,
  opts: { selector?: string; jobs?: boolean } = {},
): Promise<PodState[]> {
  const list = await kubectlJson(['-n', ns, 'get', 'pods', ...(opts.selector ? ['-l', opts.selector] : [])]);
  return (list.items as Json[])
    .filter((p) => opts.jobs || !(p.metadata.ownerReferences ?? []).some((o: Json) => o.kind === 'Job'))
    .map((p) => {
      const statuses: Json[] = p.status.containerStatuses ?? [];
      return {
        name: p.metadata.name,
        component: componentOf(p.metadata.labels),
        phase: p.status.phase,
        ready: (p.status.conditions ?? []).some((c: Json) => c.type === 'Ready' && c.status === 'True'),
        restarts: statuses.reduce((n, s) => n + (s.restartCount ?? 0), 0),
        images: (p.spec.containers as Json[]).map((c) => c.image),
        uid: p.metadata.uid,
        deleting: Boolean(p.metadata.deletionTimestamp),
      };
    });
}

/**
 * Waits until no pod of the namespace is terminating: after a rollout `helm --wait` returns as
 * soon as the new pods are Ready, while the old ones still serve out their preStop wait (and,
 * for a moment, their Service's traffic).
 */
export async function settled(ns: string, timeoutMs = 120_000): Promise<PodState[]> {
  return waitFor(
    `the old pods of ${ns} gone`,
    async () => {
      const list = await pods(ns, { jobs: true });
      return list.some((p) => p.deleting) ? undefined : list.filter((p) => p.phase !== 'Succeeded');
    },
    timeoutMs,
  );
}

/** "9/9 Ready, restarts 0 (gateway 0, identity 0, …)" */
export function describePods(list: PodState[]): string {
  const ready = list.filter((p) => p.ready).length;
  const restarts = list.reduce((n, p) => n + p.restarts, 0);
  const each = list.map((p) => `${p.component} ${p.restarts}`).join(', ');
  return `${ready}/${list.length} pods Ready, restarts ${restarts} (${each})`;
}

export interface DeploymentState {
  name: string;
  component: string;
  replicas: number;
  ready: number;
  updated: number;
  available: number;
  generation: number;
  observed: number;
  images: string[];
}

export async function deployments(ns: string): Promise<DeploymentState[]> {
  const list = await kubectlJson(['-n', ns, 'get', 'deployments']);
  return (list.items as Json[]).map((d) => ({
    name: d.metadata.name,
    component: componentOf(d.metadata.labels),
    replicas: d.spec.replicas ?? 1,
    ready: d.status.readyReplicas ?? 0,
    updated: d.status.updatedReplicas ?? 0,
    available: d.status.availableReplicas ?? 0,
    generation: d.metadata.generation,
    observed: d.status.observedGeneration ?? 0,
    images: (d.spec.template.spec.containers as Json[]).map((c) => c.image),
  }));
}

/** Waits until a Deployment's rollout is complete (`kubectl rollout status`). */
export async function rolloutStatus(ns: string, deployment: string, timeoutS = 300): Promise<number> {
  const r = await kubectl(
    ['-n', ns, 'rollout', 'status', `deployment/${deployment}`, `--timeout=${timeoutS}s`],
    {
      timeoutMs: (timeoutS + 20) * 1000,
    },
  );
  if (r.code !== 0)
    throw new Error(`rollout of ${deployment} not complete: ${r.err || r.out}\n${await diagnostics(ns)}`);
  return r.ms;
}

/**
 * Records the Jobs that appear in the namespace until stop() (name → image of its first
 * container): a hook Job lives only while its hook runs, so it is seen through a watch.
 */
export function watchJobs(ns: string): { stop: () => Map<string, string> } {
  const seen = new Map<string, string>();
  const child = spawn(KUBECTL, [
    '-n',
    ns,
    'get',
    'jobs',
    '--watch',
    '-o',
    'jsonpath={.metadata.name}{" "}{.spec.template.spec.containers[0].image}{"\\n"}',
  ]);
  let buf = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    buf += d;
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const [name, image] = buf.slice(0, i).trim().split(' ');
      buf = buf.slice(i + 1);
      if (name) seen.set(name, image ?? '');
    }
  });
  return {
    stop: () => {
      child.kill();
      return seen;
    },
  };
}

/** What a failed wait should show: pods, recent events, and the last lines of unready pods. */
export async function diagnostics(ns: string): Promise<string> {
  const parts = [
    (await kubectl(['-n', ns, 'get', 'pods,jobs', '-o', 'wide'])).out,
    (await kubectl(['-n', ns, 'get', 'events', '--sort-by=.lastTimestamp'])).out
      .split('\n')
      .slice(-25)
      .join('\n'),
  ];
  for (const p of (await pods(ns, { jobs: true }).catch(() => [])).filter((x) => !x.ready).slice(0, 4)) {
    const logs = await kubectl(['-n', ns, 'logs', p.name, '--all-containers', '--tail=15']);
    parts.push(`--- ${p.name}:\n${logs.out || logs.err}`);
  }
  return parts.join('\n');
}

// ----- the chart --------------------------------------------------------------------------------

/** The gateway as tests reach it: a NodePort on the node's address, or a port-forward. */
export interface GatewayPlan {
  mode: 'nodeport' | 'port-forward';
  port: number;
  url: string;
}

const NODE_PORT_RANGE = (env.PARLEY_K8S_NODE_PORTS ?? '31000-31999').split('-').map(Number) as [
  number,
  number,
];

/** Chooses the gateway's address before the install, since PUBLIC_ORIGIN names it. */
export async function planGateway(): Promise<GatewayPlan> {
  if ((env.PARLEY_K8S_GATEWAY ?? 'nodeport') === 'port-forward') {
    const port = await freePort();
    return { mode: 'port-forward', port, url: `http://127.0.0.1:${port}` };
  }
  const services = await kubectlJson(['get', 'services', '--all-namespaces']);
  const used = new Set<number>();
  for (const s of services.items as Json[])
    for (const p of s.spec.ports ?? []) if (p.nodePort) used.add(p.nodePort);
  const [lo, hi] = NODE_PORT_RANGE;
  // Spread over the range (a kept namespace may still hold a port), then the first free one.
  const start = lo + ((process.pid * 7919) % (hi - lo + 1));
  for (let i = 0; i <= hi - lo; i++) {
    const port = lo + ((start - lo + i) % (hi - lo + 1));
    if (!used.has(port)) {
      const host = env.PARLEY_K8S_NODE_ADDRESS ?? '127.0.0.1';
      return { mode: 'nodeport', port, url: `http://${host}:${port}` };
    }
  }
  throw new Error(`no free NodePort in ${lo}-${hi}`);
}

export interface ValuesOptions {
  gateway: GatewayPlan;
  /** Services left out (enabled: false). */
  disabled?: string[];
  /** Image tag of every process (default IMAGES.tag). */
  tag?: string;
  /** global.otel.endpoint: where every process sends its spans (OTLP/HTTP). */
  otel?: string;
  /** The bundled PostgreSQL and NATS (default), or these external ones. */
  external?: { postgresHost: string; passwordSecret: string; passwordKey: string; natsUrl: string };
}

/** The chart's values for this cluster: local images never pulled, the bundled dependencies. */
export function platformValues(o: ValuesOptions): Json {
  const services: Json = {};
  for (const p of PROCESSES) {
    services[p] = {
      enabled: !(o.disabled ?? []).includes(p),
      image: { repository: `${IMAGES.prefix}/${p}` },
    };
  }
  services.gateway.service =
    o.gateway.mode === 'nodeport' ? { type: 'NodePort', nodePort: o.gateway.port } : { type: 'ClusterIP' };
  services.identity.env = { PARLEY_ADMIN_EMAIL: ADMIN.email };
  services.identity.secretEnv = { PARLEY_ADMIN_PASSWORD: ADMIN.password };
  return {
    global: {
      image: { tag: o.tag ?? IMAGES.tag, pullPolicy: 'IfNotPresent' },
      publicOrigin: o.gateway.url,
      ...(o.otel ? { otel: { endpoint: o.otel } } : {}),
      ...(o.external
        ? {
            postgresql: {
              host: o.external.postgresHost,
              existingSecret: o.external.passwordSecret,
              existingSecretPasswordKey: o.external.passwordKey,
            },
            nats: { url: o.external.natsUrl },
          }
        : {}),
    },
    postgresql: { enabled: !o.external, image: IMAGES.postgres, storage: '1Gi' },
    nats: { enabled: !o.external, image: IMAGES.nats, storage: '1Gi' },
    services,
  };
}

/** Writes values to a file helm reads (JSON is YAML). */
export function valuesFile(values: Json): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-k8s-values-'));
  const file = join(dir, 'values.yaml');
  writeFileSync(file, JSON.stringify(values, null, 2));
  return file;
}

/**
 * `helm install|upgrade RELEASE CHART … --wait` (the Parley chart unless `chart`), or
 * `helm rollback RELEASE [REVISION] --wait`: its time, or an error with helm's message and the
 * namespace's state.
 */
export async function helmRelease(
  verb: 'install' | 'upgrade' | 'rollback',
  release: string,
  ns: string,
  opts: { chart?: string; args?: string[]; timeoutS?: number } = {},
): Promise<number> {
  const timeoutS = opts.timeoutS ?? 900;
  const target = verb === 'rollback' ? [] : [opts.chart ?? CHART];
  const r = await helm(
    [verb, release, ...target, ...(opts.args ?? []), '-n', ns, '--wait', `--timeout=${timeoutS}s`],
    {
      timeoutMs: (timeoutS + 60) * 1000,
    },
  );
  if (r.code !== 0)
    throw new Error(`helm ${verb} ${release} failed: ${r.err || r.out}\n${await diagnostics(ns)}`);
  return r.ms;
}

/** The gateway's URL for requests, open until close() (a port-forward runs meanwhile). */
export async function openGateway(
  plan: GatewayPlan,
  ns: string,
  service: string,
): Promise<{ url: string; close: () => void }> {
  let forward: ChildProcess | null = null;
  if (plan.mode === 'port-forward') {
    forward = spawn(KUBECTL, ['-n', ns, 'port-forward', `service/${service}`, `${plan.port}:80`], {
      stdio: 'ignore',
    });
  }
  await waitFor(
    `the gateway at ${plan.url}`,
    async () => ((await fetch(`${plan.url}/health/ready`)).ok ? true : undefined),
    120_000,
  );
  return { url: plan.url, close: () => forward?.kill() };
}

// ----- the platform through the gateway ---------------------------------------------------------

export async function api(
  url: string,
  path: string,
  opts: { method?: string; body?: unknown; cookie?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Json; headers: Headers }> {
  const headers: Record<string, string> = { origin: url, ...opts.headers };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.cookie) headers.cookie = opts.cookie;
  const res = await fetch(`${url}${path}`, {
    method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let body: Json = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {}
  return { status: res.status, body, headers: res.headers };
}

/** Signs the first admin in (identity creates it from PARLEY_ADMIN_*): the session cookie. */
export async function adminSession(url: string, admin = ADMIN): Promise<string> {
  const res = await fetch(`${url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify(admin),
  });
  if (res.status !== 200) throw new Error(`admin sign-in answered ${res.status}: ${await res.text()}`);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  if (!cookie.includes('=')) throw new Error('admin sign-in set no session cookie');
  return cookie;
}

/** The first free demo slot of the booking window (dates from tomorrow on), if any. */
export async function freeSlot(url: string, fromDay = 1): Promise<string | undefined> {
  for (let day = fromDay; day <= fromDay + 20; day++) {
    const date = new Date(Date.now() + day * 86_400_000).toISOString().slice(0, 10);
    const r = await api(url, `/api/bookings/available?date=${date}`);
    const slot = (r.body?.availableSlots as string[] | undefined)?.[0];
    if (slot) return slot;
  }
  return undefined;
}

/** Books a demo in the first free slot: the answer and the slot. */
export async function bookDemo(
  url: string,
  email: string,
  name = 'Cluster Visitor',
  headers: Record<string, string> = {},
) {
  const slot = await freeSlot(url);
  if (!slot) throw new Error('no free demo slot in the booking window');
  const r = await api(url, '/api/bookings', { body: { name, email, timeSlot: slot }, headers });
  return { ...r, slot };
}

// ----- the sink: a mail relay and a trace collector inside the cluster ---------------------------

export interface SinkMessage {
  id: number;
  from: string;
  to: string[];
  subject: string | null;
  messageId: string | null;
  bareLineBreaks: boolean;
  headers: [string, string][];
  raw: string | null;
}

export interface SinkStats {
  messages: number;
  deliveries: number;
  recipients: number;
  duplicates: number;
  bareLineBreaks: number;
  connections: { open: number; total: number };
  spans: number;
}

export interface SinkSpan {
  service: string | null;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  links: { traceId: string; spanId: string }[];
}

/**
 * The sink inside the cluster (scripts/test/mail-sink.mjs, from a ConfigMap, run by node of the
 * gateway's image): SMTP on `host:smtpPort` and OTLP/HTTP on `otlpEndpoint` for the platform;
 * what it received is read through the API server's service proxy, so no port of the cluster
 * has to reach this machine.
 */
export class Sink {
  readonly smtpPort = 2525;
  readonly httpPort = 8025;
  constructor(
    readonly ns: string,
    readonly name = 'sink',
  ) {}

  /** The address the platform's email service sends to (the Service's cluster DNS name). */
  get host() {
    return `${this.name}.${this.ns}.svc.cluster.local`;
  }

  /** The OTLP/HTTP endpoint for global.otel.endpoint (the exporter appends /v1/traces). */
  get otlpEndpoint() {
    return `http://${this.host}:${this.httpPort}`;
  }

  private path(p: string) {
    return `/api/v1/namespaces/${this.ns}/services/http:${this.name}:http/proxy${p}`;
  }

  async get<T>(p: string): Promise<T> {
    return JSON.parse(await kubectlOk(['get', '--raw', this.path(p)])) as T;
  }

  stats() {
    return this.get<SinkStats>('/stats');
  }

  async recipients(): Promise<Record<string, number>> {
    return (await this.get<{ counts: Record<string, number> }>('/recipients')).counts;
  }

  async messages(to?: string, limit = 100): Promise<SinkMessage[]> {
    const q = new URLSearchParams({ limit: String(limit), ...(to ? { to } : {}) });
    return (await this.get<{ messages: SinkMessage[] }>(`/messages?${q}`)).messages;
  }

  async reset(): Promise<void> {
    await kubectlOk(['delete', '--raw', this.path('/messages')]);
  }

  async spans(traceId: string): Promise<SinkSpan[]> {
    return (await this.get<{ spans: SinkSpan[] }>(`/spans?traceId=${traceId}`)).spans;
  }

  /** Waits for a message to `to` that `match` accepts. */
  waitForMessage(to: string, match: (m: SinkMessage) => boolean = () => true, timeoutMs = 120_000) {
    return waitFor(
      `a message to ${to} in the sink`,
      async () => (await this.messages(to)).find(match),
      timeoutMs,
    );
  }

  /** Creates the sink's ConfigMap, Deployment and Service; resolves when it answers. */
  async deploy(image = imageOf('gateway')): Promise<void> {
    const script = readFileSync(join(repoRoot, 'scripts/test/mail-sink.mjs'), 'utf8');
    const labels = { 'app.kubernetes.io/name': this.name, 'app.kubernetes.io/component': this.name };
    const manifests = [
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: this.name, labels },
        data: { 'sink.mjs': script },
      },
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: this.name, labels },
        spec: {
          replicas: 1,
          selector: { matchLabels: labels },
          template: {
            metadata: { labels },
            spec: {
              automountServiceAccountToken: false,
              securityContext: {
                runAsNonRoot: true,
                runAsUser: 10001,
                runAsGroup: 10001,
                seccompProfile: { type: 'RuntimeDefault' },
              },
              containers: [
                {
                  name: 'sink',
                  image,
                  imagePullPolicy: 'IfNotPresent',
                  command: ['node', '/sink/sink.mjs'],
                  env: [
                    { name: 'SMTP_PORT', value: String(this.smtpPort) },
                    { name: 'HTTP_PORT', value: String(this.httpPort) },
                  ],
                  ports: [
                    { name: 'smtp', containerPort: this.smtpPort },
                    { name: 'http', containerPort: this.httpPort },
                  ],
                  readinessProbe: {
                    httpGet: { path: '/health', port: 'http' },
                    periodSeconds: 2,
                    timeoutSeconds: 3,
                  },
                  resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { memory: '512Mi' } },
                  securityContext: {
                    allowPrivilegeEscalation: false,
                    readOnlyRootFilesystem: true,
                    capabilities: { drop: ['ALL'] },
                  },
                  volumeMounts: [{ name: 'script', mountPath: '/sink', readOnly: true }],
                },
              ],
              volumes: [{ name: 'script', configMap: { name: this.name } }],
            },
          },
        },
      },
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: this.name, labels },
        spec: {
          selector: labels,
          ports: [
            { name: 'smtp', port: this.smtpPort, targetPort: 'smtp' },
            { name: 'http', port: this.httpPort, targetPort: 'http' },
          ],
        },
      },
    ];
    await kubectlOk(['-n', this.ns, 'apply', '-f', '-'], {
      input: manifests.map((m) => JSON.stringify(m)).join('\n'),
    });
    await rolloutStatus(this.ns, this.name, 180);
    await waitFor(
      'the sink through the service proxy',
      async () => (await this.stats()) ?? undefined,
      60_000,
    );
  }
}

/**
 * Points the platform's mail at the sink through the settings API (SMTP host and port, no
 * credentials, so no TLS is required). Resolves once the email service has applied it.
 */
export async function mailToSink(url: string, cookie: string, sink: Sink): Promise<void> {
  for (const [key, value] of [
    ['smtp_host', sink.host],
    ['smtp_port', String(sink.smtpPort)],
  ] as const) {
    const r = await api(url, '/api/admin/settings', { body: { key, value }, cookie });
    if (r.status !== 200) throw new Error(`saving ${key} answered ${r.status}: ${JSON.stringify(r.body)}`);
    // The save waits for the email service to apply it; `pending` names a service that did not.
    if ((r.body?.pending ?? []).length) throw new Error(`saving ${key}: not applied by ${r.body.pending}`);
  }
}

/**
 * Waits until every address in `emails` has exactly one mail in the sink (no event lost, none
 * applied twice) and answers how long that took; throws naming the addresses that did not.
 */
export async function eachConfirmedOnce(sink: Sink, emails: string[], what: string, timeoutMs = 180_000) {
  const t0 = Date.now();
  const wrong = (got: Record<string, number>) => emails.filter((e) => got[e] !== 1);
  try {
    await waitFor(
      `a confirmation for every booking ${what}`,
      async () => (wrong(await sink.recipients()).length === 0 ? true : undefined),
      timeoutMs,
    );
  } catch (err) {
    const got = await sink.recipients();
    const detail = wrong(got).map((e) => `${e}: ${got[e] ?? 0}`);
    throw new Error(`${(err as Error).message}; not exactly once: ${detail.join(', ')}`);
  }
  return Date.now() - t0;
}

// ----- a steady request loop --------------------------------------------------------------------

export interface TrafficResult {
  requests: number;
  failures: number;
  byStatus: Record<string, number>;
  /** The first few failures: what, when (ms after start), why. */
  failed: string[];
  ms: number;
}

/**
 * A small steady request loop against the gateway: `workers` loops of public reads (the site,
 * the blog, the calendar, readiness), each pausing `pauseMs` between requests, and with
 * `bookEveryMs` a booking that often (booking allows 20 public writes per client IP and
 * minute: keep it above 3 s). A failure is any answer but the expected one, or no answer.
 */
export function steadyTraffic(
  url: string,
  opts: { workers?: number; pauseMs?: number; bookEveryMs?: number } = {},
) {
  const t0 = Date.now();
  const result: TrafficResult = { requests: 0, failures: 0, byStatus: {}, failed: [], ms: 0 };
  let stopping = false;
  let wake: () => void = () => {};
  const stopped = new Promise<void>((r) => {
    wake = r;
  });
  const pause = (ms: number) => Promise.race([sleep(ms), stopped]);
  let n = 0;
  const date = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  const reads = ['/', '/api/blog', `/api/bookings/available?date=${date}`, '/health/ready'];
  const bookings: string[] = [];

  /** A request's status, and the start of its body when it is not an expected one (who answered). */
  async function once(
    what: string,
    request: () => Promise<{ status: number; body: string }>,
    ok: number[],
  ): Promise<void> {
    try {
      const { status, body } = await request();
      result.byStatus[status] = (result.byStatus[status] ?? 0) + 1;
      if (!ok.includes(status)) throw new Error(`answered ${status}: ${body.slice(0, 200)}`);
    } catch (err) {
      result.failures++;
      if (result.failed.length < 10) result.failed.push(`${what} at ${Date.now() - t0} ms: ${String(err)}`);
    } finally {
      result.requests++;
    }
  }

  const read = async () => {
    const path = reads[n++ % reads.length] as string;
    await once(`GET ${path}`, async () => {
      const res = await fetch(`${url}${path}`);
      const body = await res.text();
      return { status: res.status, body: res.status === 200 ? '' : body };
    }, [200]);
  };
  const book = async () => {
    const email = `steady-${bookings.length + 1}-${Date.now()}@example.com`;
    // 409: another booking took the slot between the read and the write, a correct answer.
    await once('POST /api/bookings', async () => {
      const slot = await freeSlot(url, 1 + (bookings.length % 10));
      const r = await api(url, '/api/bookings', { body: { name: 'Steady Visitor', email, timeSlot: slot } });
      if (r.status === 201) bookings.push(email);
      return { status: r.status, body: JSON.stringify(r.body) };
    }, [201, 409]);
  };

  const loops = Array.from({ length: opts.workers ?? 2 }, async () => {
    while (!stopping) {
      await read();
      await pause(opts.pauseMs ?? 25);
    }
  });
  if (opts.bookEveryMs)
    loops.push(
      (async () => {
        while (!stopping) {
          await book();
          await pause(opts.bookEveryMs as number);
        }
      })(),
    );
  return {
    /** Requests so far (to wait until traffic demonstrably flows). */
    get requests() {
      return result.requests;
    },
    /** The visitors' addresses of the bookings made (201). */
    bookings,
    async stop(): Promise<TrafficResult> {
      stopping = true;
      wake();
      await Promise.all(loops);
      result.ms = Date.now() - t0;
      return result;
    },
  };
}

export const describeTraffic = (t: TrafficResult) =>
  `${t.requests} requests in ${seconds(t.ms)}, ${t.failures} failed (${Object.entries(t.byStatus)
    .map(([s, c]) => `${s}: ${c}`)
    .join(', ')})${t.failed.length ? `; first failures: ${t.failed.join(' | ')}` : ''}`;

/** Removes a temporary values file's directory. */
export const removeValuesFile = (file: string) => rmSync(join(file, '..'), { recursive: true, force: true });
