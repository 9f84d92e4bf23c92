/**
 * The deployment descriptions, checked with the real tools (scripts/tools.sh builds them):
 * the Helm chart (lint, render, strict offline schema validation, unit checks), the kustomize
 * base and overlays, the Dockerfile and the compose file. Every service that exists in the
 * workspace must be in every description.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { blogService } from '@parley/blog/service';
import { bookingService } from '@parley/booking/service';
import { emailService } from '@parley/email/service';
import { GatewayEnv } from '@parley/gateway/config';
import { identityService } from '@parley/identity/service';
import { settingsService } from '@parley/settings/service';
import { voiceService } from '@parley/voice/service';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../lib/paths.ts';
import {
  BIN,
  CHART,
  envOf,
  helmTemplate,
  helmTemplateFails,
  type K8sObject,
  kubeconform,
  kubernetesValidate,
  kustomizeBuild,
  mustRun,
  ofKind,
  parseYamlStream,
  podSpecOf,
  type Rendered,
  run,
  toolsGate,
  workloads,
  workspaceServices,
} from './tools.ts';

toolsGate(['helm', 'kustomize', 'kubeconform', 'python']);
const SERVICES = workspaceServices();
const COMPONENTS = ['gateway', ...SERVICES].sort();
const PROD_VALUES = join(CHART, 'ci/production-values.yaml');

/** Env keys each process understands (their validated schemas), plus the chart's helpers. */
const HELPER_KEYS = [
  'DATABASE_USER',
  'DATABASE_PASSWORD',
  'DATABASE_HOST',
  'DATABASE_PORT',
  'DATABASE_NAME',
  'MIGRATE_ON_START',
  // Node's own (the email service's heap cap).
  'NODE_OPTIONS',
];
const KNOWN_ENV: Record<string, Set<string>> = {
  gateway: new Set(Object.keys(GatewayEnv.properties)),
  booking: new Set([...Object.keys(bookingService.envSchema.properties), ...HELPER_KEYS]),
  identity: new Set([...Object.keys(identityService.envSchema.properties), ...HELPER_KEYS]),
  blog: new Set([...Object.keys(blogService.envSchema.properties), ...HELPER_KEYS]),
  voice: new Set([...Object.keys(voiceService.envSchema.properties), ...HELPER_KEYS]),
  email: new Set([...Object.keys(emailService.envSchema.properties), ...HELPER_KEYS]),
  settings: new Set([...Object.keys(settingsService.envSchema.properties), ...HELPER_KEYS]),
};
/** Test-only switches (SSRF and certificate-origin holes) that no deployment may set. */
const TEST_ONLY_ENV = ['SETTINGS_CRAWL_ALLOW_PRIVATE', 'SNS_TEST_CERT_ORIGINS'];

const componentOf = (o: K8sObject): string | undefined =>
  o.metadata.labels?.['app.kubernetes.io/component'] ?? o.metadata.labels?.['app.kubernetes.io/name'];

function expectValid(rendered: Rendered, label: string) {
  const v = kubeconform(rendered.yaml);
  expect(
    v.messages.filter((m) => !m.includes('statusValid')),
    `${label}: kubeconform`,
  ).toEqual([]);
  expect(v.ok, `${label}: ${JSON.stringify(v)}`).toBe(true);
  expect(v.valid).toBe(rendered.objects.length);
  // Second validator (its own schema copy); it cannot check CRDs, so drop ServiceMonitors.
  const core = rendered.objects.filter((o) => o.kind !== 'ServiceMonitor');
  const kv = kubernetesValidate(core.map((o) => JSON.stringify(o)).join('\n---\n'));
  expect(kv.code, `${label}: kubernetes-validate\n${kv.stdout}${kv.stderr}`).toBe(0);
}

/** Probes, resources, hardened pod and container security contexts, writable /tmp only. */
function expectHardened(objects: K8sObject[], label: string) {
  const parley = workloads(objects).filter(
    (o) => o.metadata.labels?.['app.kubernetes.io/part-of'] === 'parley',
  );
  expect(parley.length, label).toBeGreaterThan(0);
  for (const w of parley) {
    const where = `${label} ${w.kind}/${w.metadata.name}`;
    const pod = podSpecOf(w);
    expect(pod.automountServiceAccountToken, where).toBe(false);
    expect(pod.securityContext?.runAsNonRoot, where).toBe(true);
    expect(pod.securityContext?.seccompProfile?.type, where).toBe('RuntimeDefault');
    for (const c of pod.containers) {
      const sc = c.securityContext ?? {};
      expect(sc.allowPrivilegeEscalation, where).toBe(false);
      expect(sc.readOnlyRootFilesystem, where).toBe(true);
      expect(sc.capabilities?.drop, where).toEqual(['ALL']);
      expect(sc.privileged ?? false, where).toBe(false);
      expect(c.resources?.requests?.cpu, where).toBeTruthy();
      expect(c.resources?.requests?.memory, where).toBeTruthy();
      expect(c.resources?.limits?.memory, where).toBeTruthy();
      if (w.kind === 'Deployment') {
        expect(c.startupProbe?.httpGet?.path, where).toBe('/health/live');
        expect(c.livenessProbe?.httpGet?.path, where).toBe('/health/live');
        expect(c.readinessProbe?.httpGet?.path, where).toBe('/health/ready');
        const port = c.ports?.find((p: { name: string }) => p.name === 'http');
        expect(port, where).toBeTruthy();
        for (const probe of [c.startupProbe, c.livenessProbe, c.readinessProbe])
          expect(probe.httpGet.port).toBe('http');
      }
      if (
        w.metadata.labels?.['app.kubernetes.io/name'] !== 'postgresql' &&
        w.metadata.labels?.['app.kubernetes.io/name'] !== 'nats'
      ) {
        const tmp = c.volumeMounts?.find((m: { mountPath: string }) => m.mountPath === '/tmp');
        expect(tmp, `${where}: /tmp mount`).toBeTruthy();
        const vol = pod.volumes.find((v: { name: string }) => v.name === tmp.name);
        expect(vol.emptyDir, `${where}: /tmp is an emptyDir`).toBeTruthy();
      }
    }
  }
}

/** The size limit of a workload's /tmp emptyDir. */
function tmpLimitOf(w: K8sObject): string | undefined {
  const pod = podSpecOf(w);
  const mount = pod.containers[0]?.volumeMounts?.find((m: { mountPath: string }) => m.mountPath === '/tmp');
  return pod.volumes?.find((v: { name: string }) => v.name === mount?.name)?.emptyDir?.sizeLimit;
}

/** Deployments by component, env wiring of each process against its own env schema. */
function expectWiring(objects: K8sObject[], label: string, serviceUrl: (name: string) => string) {
  const deployments = ofKind(objects, 'Deployment').filter((d) => COMPONENTS.includes(componentOf(d) ?? ''));
  expect(deployments.map((d) => componentOf(d)).sort(), `${label}: one Deployment per component`).toEqual(
    COMPONENTS,
  );
  const publicOrigins = new Set<unknown>();
  const encryptionKeyRefs = new Set<unknown>();
  for (const d of deployments) {
    const name = componentOf(d)!;
    const container = podSpecOf(d).containers[0];
    const env = envOf(container, objects);
    const where = `${label} ${name}`;
    for (const key of Object.keys(env)) {
      expect(
        KNOWN_ENV[name]?.has(key) || ['HOST', 'PORT', 'NODE_ENV'].includes(key),
        `${where}: unknown env ${key}`,
      ).toBe(true);
      expect(TEST_ONLY_ENV, `${where}: test-only env ${key}`).not.toContain(key);
    }
    expect(env.INTERNAL_AUTH_SECRET, where).toMatchObject({ from: expect.stringContaining('secretKeyRef') });
    // One public origin for every process.
    expect(String(env.PUBLIC_ORIGIN), `${where}: PUBLIC_ORIGIN`).toMatch(/^https?:\/\/[^/]+$/);
    publicOrigins.add(env.PUBLIC_ORIGIN);
    // Settings seals credentials with a key email opens: the same Secret key for both.
    if (name === 'settings' || name === 'email') {
      expect(env.SETTINGS_ENCRYPTION_KEY, where).toMatchObject({
        from: expect.stringContaining('secretKeyRef'),
      });
      encryptionKeyRefs.add((env.SETTINGS_ENCRYPTION_KEY as { from: string }).from);
    }
    if (name === 'email')
      expect(env.EMAIL_SIGNING_SECRET, where).toMatchObject({
        from: expect.stringContaining('secretKeyRef'),
      });
    if (name === 'settings') expect(env.PARLEY_STORAGE, where).toBe('external');
    if (name === 'gateway') {
      expect(env.WEB_DIST_DIR, where).toBe('/app/web/dist');
      for (const svc of SERVICES) expect(env[`${svc.toUpperCase()}_URL`], where).toBe(serviceUrl(svc));
    } else {
      expect(String(env.DATABASE_URL), where).toMatch(/^postgresql:\/\//);
      expect(env.NATS_URL, where).toMatch(/^nats:\/\//);
    }
    // Each upstream URL names a Service selecting this component's pods on the http port.
    const svcName = new URL(serviceUrl(name)).hostname;
    const service = objects.find((o) => o.kind === 'Service' && o.metadata.name === svcName);
    expect(service, `${where}: Service ${svcName}`).toBeTruthy();
    const podLabels = d.spec.template.metadata.labels;
    for (const [k, v] of Object.entries(service!.spec.selector))
      expect(podLabels[k], `${where}: selector ${k}`).toBe(v);
    expect(service!.spec.ports[0].targetPort).toBe('http');
    // Its ServiceAccount exists.
    expect(
      objects.some((o) => o.kind === 'ServiceAccount' && o.metadata.name === podSpecOf(d).serviceAccountName),
    ).toBe(true);
  }
  expect(publicOrigins.size, `${label}: one PUBLIC_ORIGIN`).toBe(1);
  if (SERVICES.includes('settings') && SERVICES.includes('email'))
    expect(encryptionKeyRefs.size, `${label}: settings and email share SETTINGS_ENCRYPTION_KEY`).toBe(1);
  // NetworkPolicies: each service admits only the gateway's pods and the metrics scraper.
  const gatewayLabels = deployments.find((d) => componentOf(d) === 'gateway')!.spec.template.metadata.labels;
  for (const d of deployments.filter((x) => componentOf(x) !== 'gateway')) {
    const labels = d.spec.template.metadata.labels;
    const np = ofKind(objects, 'NetworkPolicy').find((p) =>
      Object.entries(p.spec.podSelector.matchLabels).every(([k, v]) => labels[k] === v),
    );
    expect(np, `${label} ${componentOf(d)}: NetworkPolicy`).toBeTruthy();
    expect(np!.spec.policyTypes).toContain('Ingress');
    const rules = np!.spec.ingress as {
      from?: { podSelector?: { matchLabels: Record<string, string> }; namespaceSelector?: unknown }[];
    }[];
    expect(
      rules.every((r) => r.from && r.from.length > 0),
      'no rule admits everyone',
    ).toBe(true);
    const fromGateway = rules.some((r) =>
      r.from!.some(
        (f) =>
          f.podSelector &&
          !f.namespaceSelector &&
          Object.entries(f.podSelector.matchLabels).every(([k, v]) => gatewayLabels[k] === v),
      ),
    );
    expect(fromGateway, `${label} ${componentOf(d)}: admits the gateway`).toBe(true);
    expect(rules.length, `${label} ${componentOf(d)}: gateway + scraper only`).toBe(2);
  }
}

describe('Helm chart charts/parley', () => {
  const chartUrl = (svc: string) => `http://parley-${svc}:80`;

  it('passes helm lint --strict with the default and the production-like values', () => {
    mustRun(BIN.helm, ['lint', '--strict', CHART]);
    mustRun(BIN.helm, ['lint', '--strict', CHART, '-f', PROD_VALUES]);
  });

  it('renders the default values: valid, hardened, wired, exactly the existing services', () => {
    const r = helmTemplate();
    expectValid(r, 'default');
    expectHardened(r.objects, 'default');
    expectWiring(r.objects, 'default', chartUrl);
    const components = new Set(
      r.objects.map((o) => o.metadata.labels?.['app.kubernetes.io/component']).filter(Boolean),
    );
    expect([...components].filter((c) => !c!.endsWith('-migrate')).sort()).toEqual(COMPONENTS);
    for (const kind of ['Service', 'ServiceAccount', 'NetworkPolicy', 'ConfigMap']) {
      expect(ofKind(r.objects, kind).map(componentOf).sort(), kind).toEqual(COMPONENTS);
    }
    // No HPA, PDB, Ingress or ServiceMonitor unless asked for.
    for (const kind of ['HorizontalPodAutoscaler', 'PodDisruptionBudget', 'Ingress', 'ServiceMonitor']) {
      expect(ofKind(r.objects, kind), kind).toEqual([]);
    }
    // /tmp: the email service's holds an Excel import's spooled worksheet and shared strings.
    expect(Object.fromEntries(workloads(r.objects).map((w) => [w.metadata.name, tmpLimitOf(w)]))).toEqual(
      Object.fromEntries(
        workloads(r.objects).map((w) => [
          w.metadata.name,
          w.metadata.name === 'parley-email' ? '2Gi' : '256Mi',
        ]),
      ),
    );
  });

  it('runs migrations as pre-install/pre-upgrade hook Jobs, and on start when switched off', () => {
    const r = helmTemplate();
    const jobs = ofKind(r.objects, 'Job');
    expect(jobs.map((j) => j.metadata.name).sort()).toEqual(SERVICES.map((s) => `parley-${s}-migrate`));
    for (const job of jobs) {
      expect(job.metadata.annotations['helm.sh/hook']).toBe('pre-install,pre-upgrade');
      expect(podSpecOf(job).containers[0].args).toEqual(['migrate']);
      expect(podSpecOf(job).restartPolicy).toBe('Never');
      const env = envOf(podSpecOf(job).containers[0], r.objects);
      expect(String(env.DATABASE_URL)).toMatch(/^postgresql:\/\//);
      // Hook Jobs run before the release's Secrets exist: they must only reference hook Secrets.
      for (const e of podSpecOf(job).containers[0].env) {
        const ref = e.valueFrom?.secretKeyRef?.name;
        if (!ref) continue;
        const secret = r.objects.find((o) => o.kind === 'Secret' && o.metadata.name === ref);
        expect(secret?.metadata.annotations?.['helm.sh/hook'], `${job.metadata.name} uses ${ref}`).toContain(
          'pre-install',
        );
        expect(
          secret!.metadata.annotations['helm.sh/hook-weight'] <
            job.metadata.annotations['helm.sh/hook-weight'],
        ).toBe(true);
      }
    }
    const cm = (o: Rendered, svc: string) =>
      o.objects.find((x) => x.kind === 'ConfigMap' && x.metadata.name === `parley-${svc}-env`)!;
    for (const svc of SERVICES) expect(cm(r, svc).data.MIGRATE_ON_START).toBe('false');

    const off = helmTemplate(['--set', 'services.booking.migrations.enabled=false']);
    expect(ofKind(off.objects, 'Job').map((j) => j.metadata.name)).not.toContain('parley-booking-migrate');
    expect(cm(off, 'booking').data.MIGRATE_ON_START).toBe('true');
  });

  it('renders the production-like values: valid, HPA + PDB per component, TLS ingress, existing secrets, ServiceMonitors', () => {
    const r = helmTemplate(['-f', PROD_VALUES]);
    expectValid(r, 'production');
    expectHardened(r.objects, 'production');
    expectWiring(r.objects, 'production', chartUrl);
    for (const kind of ['HorizontalPodAutoscaler', 'PodDisruptionBudget', 'ServiceMonitor']) {
      expect(ofKind(r.objects, kind).map(componentOf).sort(), kind).toEqual(COMPONENTS);
    }
    for (const hpa of ofKind(r.objects, 'HorizontalPodAutoscaler')) {
      const target = ofKind(r.objects, 'Deployment').find(
        (d) => d.metadata.name === hpa.spec.scaleTargetRef.name,
      );
      expect(target, hpa.metadata.name).toBeTruthy();
      expect(target!.spec.replicas, `${target!.metadata.name}: the HPA owns replicas`).toBeUndefined();
      expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    }
    const ingress = ofKind(r.objects, 'Ingress');
    expect(ingress).toHaveLength(1);
    expect(ingress[0]!.spec.tls[0].secretName).toBe('parley-tls');
    expect(ingress[0]!.spec.rules[0].http.paths[0].backend.service.name).toBe('parley-gateway');
    // Secrets come from outside: the chart renders none of its own, and references the named ones.
    expect(ofKind(r.objects, 'Secret').map((s) => s.metadata.name)).toEqual([]);
    const refs = new Set(
      workloads(r.objects).flatMap((w) =>
        podSpecOf(w).containers.flatMap((c: K8sObject) => [
          ...(c.env ?? []).map((e: K8sObject) => e.valueFrom?.secretKeyRef?.name),
          ...(c.envFrom ?? []).map((e: K8sObject) => e.secretRef?.name),
        ]),
      ),
    );
    refs.delete(undefined);
    expect([...refs].sort()).toEqual([
      'parley-blog',
      'parley-email',
      'parley-identity',
      'parley-postgres',
      'parley-settings',
      'parley-shared',
      'parley-voice',
    ]);
    for (const d of ofKind(r.objects, 'Deployment')) {
      expect(podSpecOf(d).containers[0].image).toMatch(/^registry\.example\.com\/parley\/[a-z]+:0\.1\.0$/);
      expect(podSpecOf(d).imagePullSecrets).toEqual([{ name: 'registry-credentials' }]);
    }
    const gatewayNp = ofKind(r.objects, 'NetworkPolicy').find((p) => p.metadata.name === 'parley-gateway')!;
    expect(JSON.stringify(gatewayNp.spec.ingress)).toContain('ingress-nginx');
  });

  it('disabling a service removes all its objects and its gateway upstream', () => {
    const all = helmTemplate(['-f', PROD_VALUES]);
    for (const svc of SERVICES) {
      const r = helmTemplate(['-f', PROD_VALUES, '--set', `services.${svc}.enabled=false`]);
      const mentions = r.objects.filter(
        (o) => o.metadata.name.includes(`-${svc}`) || componentOf(o)?.startsWith(svc),
      );
      expect(
        mentions.map((o) => `${o.kind}/${o.metadata.name}`),
        svc,
      ).toEqual([]);
      expect(all.objects.length - r.objects.length, svc).toBeGreaterThanOrEqual(7);
      const gatewayEnv = r.objects.find(
        (o) => o.kind === 'ConfigMap' && o.metadata.name === 'parley-gateway-env',
      )!;
      expect(gatewayEnv.data[`${svc.toUpperCase()}_URL`], svc).toBeUndefined();
      expectValid(r, `without ${svc}`);
    }
    const noGateway = helmTemplate(['-f', PROD_VALUES, '--set', 'services.gateway.enabled=false']);
    expect(noGateway.objects.filter((o) => o.metadata.name.includes('gateway'))).toEqual([]);
  }, 240_000); // one helm render per service: slow on a loaded 2-core machine

  it('adding a service is one values block', () => {
    const booking = helmTemplate(['--show-only', 'templates/deployment.yaml']).objects; // sanity: renders alone
    expect(booking.length).toBe(COMPONENTS.length);
    // A service that does not exist yet (every existing one already has its block).
    expect(SERVICES).not.toContain('reports');
    const block = {
      enabled: true,
      replicaCount: 1,
      image: { repository: 'parley/reports', tag: '' },
      port: 8080,
      resources: { requests: { cpu: '100m', memory: '192Mi' }, limits: { memory: '768Mi' } },
      env: {},
      secretEnv: {},
      existingSecret: '',
      serviceAccount: { annotations: {} },
      database: { name: 'parley_reports', user: '' },
      hpa: { enabled: true, min: 2, max: 4, targetCPU: 70 },
      pdb: { enabled: true, minAvailable: 1 },
      migrations: { enabled: true },
    };
    const r = helmTemplate(['--set-json', `services.reports=${JSON.stringify(block)}`]);
    expectValid(r, 'with reports');
    const added = r.objects.filter(
      (o) => componentOf(o) === 'reports' || componentOf(o) === 'reports-migrate',
    );
    expect(added.map((o) => o.kind).sort()).toEqual(
      // Secret: the migration hook's (INTERNAL_AUTH_SECRET while the release's Secret does not exist yet).
      [
        'ConfigMap',
        'Deployment',
        'HorizontalPodAutoscaler',
        'Job',
        'NetworkPolicy',
        'PodDisruptionBudget',
        'Secret',
        'Service',
        'ServiceAccount',
      ].sort(),
    );
    const gatewayEnv = r.objects.find(
      (o) => o.kind === 'ConfigMap' && o.metadata.name === 'parley-gateway-env',
    )!;
    expect(gatewayEnv.data.REPORTS_URL).toBe('http://parley-reports:80');
    const addedEnv = r.objects.find(
      (o) => o.kind === 'ConfigMap' && o.metadata.name === 'parley-reports-env',
    )!;
    expect(addedEnv.data.NATS_URL).toBe('nats://nats:4222');
  });

  it('bundles PostgreSQL and NATS as optional dependencies', () => {
    const r = helmTemplate(['--set', 'postgresql.enabled=true,nats.enabled=true']);
    expectValid(r, 'bundled');
    expectHardened(r.objects, 'bundled');
    expect(
      ofKind(r.objects, 'StatefulSet')
        .map((s) => s.metadata.name)
        .sort(),
    ).toEqual(['parley-nats', 'parley-postgresql']);
    // The database does not exist while pre-install hooks run: services migrate on start. The
    // one Job creates, before an upgrade or rollback, the database of a service enabled later.
    const jobs = ofKind(r.objects, 'Job');
    expect(jobs.map((j) => j.metadata.name)).toEqual(['parley-postgresql-databases']);
    expect(jobs[0]!.metadata.annotations?.['helm.sh/hook']).toBe('pre-upgrade,pre-rollback');
    for (const svc of SERVICES) expect(JSON.stringify(podSpecOf(jobs[0]!))).toContain(`parley_${svc}`);
    const init = r.objects.find(
      (o) => o.kind === 'ConfigMap' && o.metadata.name === 'parley-postgresql-init',
    )!;
    for (const svc of SERVICES)
      expect(init.data['10-parley-databases.sql']).toContain(`CREATE DATABASE parley_${svc} OWNER parley;`);
    const pgMounts = podSpecOf(
      ofKind(r.objects, 'StatefulSet').find((s) => s.metadata.name === 'parley-postgresql')!,
    );
    expect(pgMounts.volumes.find((v: K8sObject) => v.name === 'init').configMap.name).toBe(
      'parley-postgresql-init',
    );
    for (const svc of SERVICES) {
      const d = ofKind(r.objects, 'Deployment').find((x) => x.metadata.name === `parley-${svc}`)!;
      const env = envOf(podSpecOf(d).containers[0], r.objects);
      expect(env.NATS_URL).toBe('nats://parley-nats:4222');
      expect(env.MIGRATE_ON_START).toBe('true');
      expect(env.DATABASE_URL).toBe(
        `postgresql://$(DATABASE_USER):$(DATABASE_PASSWORD)@parley-postgresql:5432/parley_${svc}`,
      );
      expect(String((env.DATABASE_PASSWORD as { from: string }).from)).toContain(
        '"name":"parley-postgresql"',
      );
    }
    // Off by default.
    expect(ofKind(helmTemplate().objects, 'StatefulSet')).toEqual([]);
  });

  it('rejects invalid values through values.schema.json', () => {
    expect(helmTemplateFails(['--set', 'services.booking.replicaCount=-1'])).toMatch(/replicaCount/);
    expect(helmTemplateFails(['--set', 'global.internalAuthSecret=too-short'])).toMatch(/internalAuthSecret/);
    expect(helmTemplateFails(['--set', 'global.nats.url=http://nats:4222'])).toMatch(/url/);
    expect(helmTemplateFails(['--set', 'services.booking.env.bad-key=1'])).toMatch(/bad-key/);
    expect(helmTemplateFails(['--set', 'services.booking.typo=1'])).toMatch(/typo/);
    // PUBLIC_ORIGIN is one global value; test-only holes never reach a deployment.
    expect(helmTemplateFails(['--set', 'services.blog.env.PUBLIC_BASE_URL=https://x.example'])).toMatch(
      /PUBLIC_BASE_URL/,
    );
    expect(
      helmTemplateFails(['--set', 'services.settings.env.SETTINGS_CRAWL_ALLOW_PRIVATE=127.0.0.1:80']),
    ).toMatch(/SETTINGS_CRAWL_ALLOW_PRIVATE/);
    expect(helmTemplateFails(['--set', 'global.publicOrigin=parley.example.com'])).toMatch(/publicOrigin/);
    expect(helmTemplateFails(['--set', 'global.settingsEncryptionKey=too-short'])).toMatch(
      /settingsEncryptionKey/,
    );
    expect(helmTemplateFails(['--set', 'global.emailSigningSecret=too-short'])).toMatch(/emailSigningSecret/);
  });

  it('keeps the generated internal secret out of the pod template checksum and stable per render', () => {
    const r = helmTemplate(['--set', 'global.internalAuthSecret=0123456789abcdef0123456789abcdef']);
    const secret = r.objects.find((o) => o.kind === 'Secret' && o.metadata.name === 'parley')!;
    expect(Buffer.from(secret.data.INTERNAL_AUTH_SECRET, 'base64').toString()).toBe(
      '0123456789abcdef0123456789abcdef',
    );
    // One generated value shared by the release Secret and every hook Secret of one render.
    const generated = helmTemplate();
    const values = new Set(
      ofKind(generated.objects, 'Secret')
        .filter((s) => s.data?.INTERNAL_AUTH_SECRET)
        .map((s) => s.data.INTERNAL_AUTH_SECRET),
    );
    expect(values.size).toBe(1);
    expect(Buffer.from([...values][0], 'base64').toString().length).toBeGreaterThanOrEqual(32);
  });

  it('generates the settings encryption key and the email signing secret only for the services that read them', () => {
    const r = helmTemplate();
    const secret = r.objects.find((o) => o.kind === 'Secret' && o.metadata.name === 'parley')!;
    const decoded = (key: string) => Buffer.from(secret.data[key], 'base64').toString();
    // 32 random bytes, base64 (what kit's parseSecretKey accepts).
    expect(decoded('SETTINGS_ENCRYPTION_KEY')).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(decoded('SETTINGS_ENCRYPTION_KEY'), 'base64')).toHaveLength(32);
    expect(decoded('EMAIL_SIGNING_SECRET').length).toBeGreaterThanOrEqual(32);
    // Run-time Secret only: migrations need the database alone.
    for (const s of ofKind(r.objects, 'Secret').filter((x) => x.metadata.name !== 'parley'))
      expect(Object.keys(s.data ?? {}), s.metadata.name).not.toContain('SETTINGS_ENCRYPTION_KEY');
    const without = helmTemplate(['--set', 'services.settings.enabled=false,services.email.enabled=false']);
    const bare = without.objects.find((o) => o.kind === 'Secret' && o.metadata.name === 'parley')!;
    expect(Object.keys(bare.data)).toEqual(['INTERNAL_AUTH_SECRET']);
    const key = Buffer.alloc(32, 7).toString('base64');
    const given = helmTemplate(['--set', `global.settingsEncryptionKey=${key}`]);
    const givenSecret = given.objects.find((o) => o.kind === 'Secret' && o.metadata.name === 'parley')!;
    expect(Buffer.from(givenSecret.data.SETTINGS_ENCRYPTION_KEY, 'base64').toString()).toBe(key);
  });

  it('derives PUBLIC_ORIGIN from global.publicOrigin, else the ingress host', () => {
    const origin = (r: Rendered) =>
      r.objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'parley-email-env')!.data
        .PUBLIC_ORIGIN;
    expect(origin(helmTemplate(['-f', PROD_VALUES]))).toBe('https://parley.example.com');
    expect(origin(helmTemplate(['--set', 'ingress.enabled=true']))).toBe('http://parley.local');
    expect(origin(helmTemplate(['--set', 'global.publicOrigin=https://example.org/']))).toBe(
      'https://example.org',
    );
  });

  it('restricts egress on request: DNS, the platform, and each service its own internet ports', () => {
    expect(ofKind(helmTemplate().objects, 'NetworkPolicy').every((p) => !p.spec.egress)).toBe(true);
    const r = helmTemplate(['-f', PROD_VALUES, '--set', 'networkPolicy.egress.enabled=true']);
    expectValid(r, 'egress');
    const internetPorts = (svc: string) => {
      const np = ofKind(r.objects, 'NetworkPolicy').find((p) => p.metadata.name === `parley-${svc}`)!;
      expect(np.spec.policyTypes, svc).toEqual(['Ingress', 'Egress']);
      const rule = (np.spec.egress as K8sObject[]).find((e) => e.to?.some((t: K8sObject) => t.ipBlock));
      if (rule)
        for (const t of rule.to)
          expect(t.ipBlock.except.length, `${svc}: private ranges excepted`).toBeGreaterThan(0);
      return (rule?.ports ?? []).map((p: { port: number }) => p.port).sort((a: number, b: number) => a - b);
    };
    expect(internetPorts('email')).toEqual([25, 443, 465, 587]);
    expect(internetPorts('settings')).toEqual([80, 443]);
    expect(internetPorts('booking')).toEqual([]);
    expect(internetPorts('gateway')).toEqual([]);
  });

  it('the validators reject what they should (strict: unknown fields, missing schemas)', () => {
    const bad = `apiVersion: apps/v1
kind: Deployment
metadata: { name: x }
spec:
  replica: 1
  selector: { matchLabels: { a: b } }
  template: { metadata: { labels: { a: b } }, spec: { containers: [{ name: c, image: i }] } }
`;
    const v = kubeconform(bad);
    expect(v.ok).toBe(false);
    expect(v.messages.join('\n')).toMatch(/replica/);
    expect(kubernetesValidate(bad).code).not.toBe(0);
    const unknownKind = kubeconform('apiVersion: example.com/v1\nkind: Widget\nmetadata: { name: w }\n');
    expect(unknownKind.ok).toBe(false);
    const badMonitor = kubeconform(
      'apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: { name: m }\nspec: { selector: {}, endpoints: [{ port: http, intervall: 30s }] }\n',
    );
    expect(badMonitor.ok).toBe(false);
  });
});

describe('kustomize k8s/', () => {
  const kustomizeUrl = (svc: string) => `http://${svc}`;
  const renders = () => ({
    base: kustomizeBuild('base'),
    dev: kustomizeBuild('overlays/dev'),
    prod: kustomizeBuild('overlays/prod'),
  });

  it('kubectl kustomize and the kustomize binary render the same', () => {
    const kubectl = run('kubectl', ['kustomize', join(repoRoot, 'k8s/overlays/prod')]);
    if (kubectl.code === null || kubectl.stderr.includes('not found')) {
      if (process.env.CI === 'true') throw new Error('kubectl missing');
      return;
    }
    expect(kubectl.code, kubectl.stderr).toBe(0);
    expect(parseYamlStream(kubectl.stdout)).toEqual(kustomizeBuild('overlays/prod').objects);
  });

  it('base, dev and prod render valid, hardened and wired manifests of exactly the existing services', () => {
    for (const [name, r] of Object.entries(renders())) {
      expectValid(r, name);
      expectHardened(r.objects, name);
      expectWiring(r.objects, name, kustomizeUrl);
      for (const kind of ['Service', 'ServiceAccount', 'NetworkPolicy']) {
        const own = ofKind(r.objects, kind).filter(
          (o) => o.metadata.labels?.['app.kubernetes.io/part-of'] === 'parley',
        );
        const names = own.map((o) => o.metadata.name).filter((n) => !['nats', 'postgres'].includes(n));
        expect(names.sort(), `${name} ${kind}`).toEqual(COMPONENTS);
      }
      const jobs = ofKind(r.objects, 'Job');
      expect(jobs.map((j) => j.metadata.name).sort(), name).toEqual(SERVICES.map((s) => `${s}-migrate`));
      for (const job of jobs) expect(podSpecOf(job).containers[0].args).toEqual(['migrate']);
      for (const o of r.objects)
        if (o.kind !== 'Namespace')
          expect(o.metadata.namespace, `${o.kind}/${o.metadata.name}`).toBe('parley');
      const common = r.objects.find(
        (o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('parley-services'),
      )!;
      expect(common.data.MIGRATE_ON_START).toBe('false');
      const email = ofKind(r.objects, 'Deployment').find((d) => d.metadata.name === 'email')!;
      expect(tmpLimitOf(email), `${name}: the email service's /tmp`).toBe('2Gi');
    }
  });

  it('dev runs in-cluster NATS and PostgreSQL with a database per service', () => {
    const dev = kustomizeBuild('overlays/dev');
    expect(
      ofKind(dev.objects, 'StatefulSet')
        .map((s) => s.metadata.name)
        .sort(),
    ).toEqual(['nats', 'postgres']);
    const init = dev.objects.find(
      (o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('postgres-init'),
    )!;
    for (const svc of SERVICES)
      expect(init.data['postgres-init.sql']).toContain(`CREATE DATABASE parley_${svc} `);
    for (const d of ofKind(dev.objects, 'Deployment')) expect(d.spec.replicas).toBe(1);
  });

  it('prod: HPA and PDB per Deployment, no replica counts, no Secrets in git, registry images', () => {
    const prod = kustomizeBuild('overlays/prod');
    const deployments = ofKind(prod.objects, 'Deployment');
    for (const kind of ['HorizontalPodAutoscaler', 'PodDisruptionBudget']) {
      expect(
        ofKind(prod.objects, kind)
          .map((o) => o.metadata.name)
          .sort(),
        kind,
      ).toEqual(COMPONENTS);
    }
    for (const hpa of ofKind(prod.objects, 'HorizontalPodAutoscaler')) {
      expect(deployments.some((d) => d.metadata.name === hpa.spec.scaleTargetRef.name)).toBe(true);
    }
    for (const pdb of ofKind(prod.objects, 'PodDisruptionBudget')) {
      const d = deployments.find((x) => x.metadata.name === pdb.metadata.name)!;
      for (const [k, v] of Object.entries(pdb.spec.selector.matchLabels))
        expect(d.spec.template.metadata.labels[k]).toBe(v);
    }
    for (const d of deployments) {
      expect(d.spec.replicas, d.metadata.name).toBeUndefined();
      expect(podSpecOf(d).containers[0].image).toMatch(/^registry\.example\.com\/parley\/[a-z]+:0\.1\.0$/);
      expect(podSpecOf(d).topologySpreadConstraints, d.metadata.name).toHaveLength(1);
    }
    expect(ofKind(prod.objects, 'Secret')).toEqual([]);
    expect(ofKind(prod.objects, 'StatefulSet')).toEqual([]);
  });

  it('has one component folder per service, listed in the base', () => {
    const base = readFileSync(join(repoRoot, 'k8s/base/kustomization.yaml'), 'utf8');
    for (const svc of SERVICES) {
      expect(existsSync(join(repoRoot, 'k8s/base/services', svc, 'kustomization.yaml')), svc).toBe(true);
      expect(base).toContain(`  - services/${svc}\n`);
    }
  });
});

describe('images and compose (docker/)', () => {
  const dockerfile = readFileSync(join(repoRoot, 'docker/Dockerfile'), 'utf8');
  const instructions = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((l) => l.trim() && !l.trim().startsWith('#'))
    .map((l) => l.trim());

  it('Dockerfile: Node 24 bases, one target per process running its bundle as uid 10001, no HEALTHCHECK', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24\.\d+\.\d+-/m);
    expect(dockerfile).toMatch(/^ARG BUILD_IMAGE=node:24\.\d+\.\d+-/m);
    expect(dockerfile).toContain(`node:${readFileSync(join(repoRoot, '.node-version'), 'utf8').trim()}-`);
    expect(instructions.some((l) => /^HEALTHCHECK/i.test(l))).toBe(false);
    expect(instructions).toContain('USER 10001:10001');
    expect(dockerfile).not.toMatch(/tsx\b.*src\/main\.ts|--import", "tsx/);
    const targets = [...dockerfile.matchAll(/^FROM runtime AS (\S+)$/gm)].map((m) => m[1]);
    expect(targets.sort()).toEqual(COMPONENTS);
    for (const t of COMPONENTS) expect(dockerfile).toContain(`ENTRYPOINT ["node", "/app/dist/${t}.mjs"]`);
  });

  it('Dockerfile: every COPY source exists, and every entry point it runs is a real file', () => {
    const copies = instructions.filter((l) => /^COPY /.test(l) && !l.includes('--from='));
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) {
      const parts = copy
        .split(/\s+/)
        .slice(1)
        .filter((p) => !p.startsWith('--'));
      for (const src of parts.slice(0, -1)) expect(existsSync(join(repoRoot, src)), `COPY ${src}`).toBe(true);
    }
    // Every target is an entry of the image bundle, and every service's migrations exist.
    const bundle = readFileSync(join(repoRoot, 'scripts/lib/image-bundle.ts'), 'utf8');
    for (const svc of SERVICES) {
      expect(bundle, svc).toContain(`${svc}: 'services/${svc}/src/main.ts'`);
      expect(existsSync(join(repoRoot, 'services', svc, 'src/main.ts')), svc).toBe(true);
      expect(existsSync(join(repoRoot, 'services', svc, 'prisma/migrations')), `${svc} migrations`).toBe(
        true,
      );
    }
    expect(bundle).toContain("gateway: 'gateway/src/main.ts'");
    expect(existsSync(join(repoRoot, 'gateway/src/main.ts'))).toBe(true);
    expect(JSON.parse(readFileSync(join(repoRoot, 'web/package.json'), 'utf8')).scripts.build).toBeTruthy();
  });

  it('.dockerignore keeps host state out but nothing the build needs', () => {
    const read = (p: string) =>
      readFileSync(join(repoRoot, p), 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'));
    const patterns = read('.dockerignore');
    const toRegex = (p: string) =>
      new RegExp(
        `^${p
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*\*\//g, '@@ANY_DIRS@@')
          .replace(/\*/g, '[^/]*')
          .replaceAll('@@ANY_DIRS@@', '(.*/)?')}(/.*)?$`,
      );
    const ignored = (path: string) => patterns.some((p) => !p.startsWith('!') && toRegex(p).test(path));
    for (const path of [
      'node_modules/x',
      'services/booking/node_modules/x',
      '.data/pg',
      '.tools/bin/helm',
      '.git/HEAD',
      'web/dist/index.html',
      'services/booking/src/generated/prisma/client.ts',
      'scripts/test/k8s/platform.test.ts',
      'scripts/k8s/cluster.sh',
    ]) {
      expect(ignored(path), path).toBe(true);
    }
    const needed = [
      'package.json',
      'pnpm-lock.yaml',
      'pnpm-workspace.yaml',
      '.npmrc',
      '.node-version',
      'scripts/check-node.mjs',
      'scripts/build-image.ts',
      'scripts/lib/image-bundle.ts',
      'tsconfig.base.json',
      'gateway/src/main.ts',
      'web/src/main.tsx',
      'web/index.html',
      'scripts/package.json',
      ...SERVICES.flatMap((s) => [
        `services/${s}/package.json`,
        `services/${s}/src/main.ts`,
        `services/${s}/prisma/schema.prisma`,
      ]),
      'services/kit/src/index.ts',
      'services/contracts/src/index.ts',
    ];
    for (const path of needed) expect(ignored(path), path).toBe(false);
  });

  it('compose runs PostgreSQL, NATS, every service and the gateway from the images (the collector on request)', () => {
    const compose = parseYamlStream(
      readFileSync(join(repoRoot, 'docker/compose.yaml'), 'utf8'),
    )[0] as unknown as {
      services: Record<string, K8sObject>;
    };
    const names = Object.keys(compose.services).sort();
    expect(names).toEqual(['gateway', 'nats', 'otel-collector', 'postgres', ...SERVICES].sort());
    const init = readFileSync(join(repoRoot, 'docker/postgres-init.sql'), 'utf8');
    for (const name of ['gateway', ...SERVICES]) {
      const s = compose.services[name]!;
      expect(s.build.target, name).toBe(name);
      expect(s.build.dockerfile).toBe('docker/Dockerfile');
      expect(s.image, name).toBe(`\${PARLEY_IMAGE_PREFIX:-parley}/${name}:\${PARLEY_TAG:-dev}`);
      expect(s.read_only, name).toBe(true);
      expect(s.user, name).toBe('10001:10001');
      expect(s.cap_drop, name).toEqual(['ALL']);
      // Empty unless the shell sets it (compose's own interpolation syntax).
      expect(s.environment.OTEL_EXPORTER_OTLP_ENDPOINT).toBe(
        ['$', '{OTEL_EXPORTER_OTLP_ENDPOINT:-}'].join(''),
      );
      for (const key of Object.keys(s.environment)) {
        expect(
          KNOWN_ENV[name]?.has(key) || ['HOST', 'PORT', 'NODE_ENV'].includes(key),
          `${name}: unknown env ${key}`,
        ).toBe(true);
      }
      if (name === 'gateway') {
        for (const svc of SERVICES) {
          expect(s.environment[`${svc.toUpperCase()}_URL`]).toBe(`http://${svc}:8080`);
          expect(s.depends_on[svc].condition).toBe('service_healthy');
        }
      } else {
        const url = new URL(s.environment.DATABASE_URL);
        const db = url.pathname.slice(1);
        expect(init).toContain(`CREATE DATABASE ${db}`);
        expect(init).toMatch(new RegExp(`CREATE ROLE ${url.username} +LOGIN PASSWORD '${url.password}'`));
        expect(s.environment.NATS_URL).toBe('nats://nats:4222');
      }
    }
    expect(compose.services['otel-collector']?.profiles).toEqual(['telemetry']);
    expect(existsSync(join(repoRoot, 'docker/otel-collector.yaml'))).toBe(true);
    const otel = parseYamlStream(
      readFileSync(join(repoRoot, 'docker/otel-collector.yaml'), 'utf8'),
    )[0] as unknown as K8sObject;
    expect(otel.receivers.otlp.protocols.http.endpoint).toBe('0.0.0.0:4318');
    expect(otel.service.pipelines.traces.receivers).toEqual(['otlp']);
  });
});
