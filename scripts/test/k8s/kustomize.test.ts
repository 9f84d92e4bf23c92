/**
 * The kustomize description for real: `kubectl apply -k` of an overlay of k8s/overlays/dev that
 * only names this cluster's images and the gateway's address (what an operator's own overlay
 * does), then the same checks as the chart's: the migration Jobs complete, every pod Ready with
 * no restart, the site and blog through the gateway's Service, the first admin's sign-in, and a
 * booking whose confirmation reaches the local mailbox (booking → NATS → email).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../lib/paths.ts';
import {
  adminSession,
  api,
  bookDemo,
  cleanup,
  deleteNamespace,
  describePods,
  figure,
  type GatewayPlan,
  IMAGES,
  kubectl,
  kubectlOk,
  openGateway,
  PROCESSES,
  planGateway,
  pods,
  rolloutStatus,
  SERVICES,
  seconds,
  waitFor,
} from './harness.ts';

const NS = 'parley-k8s-kustomize';
/** The dev overlay's local admin (k8s/overlays/dev/kustomization.yaml). */
const ADMIN = { email: 'admin@parley.local', password: 'change-me-dev-only' };
let plan: GatewayPlan;
let dir = '';
let gateway: { url: string; close: () => void } | undefined;
let url = '';

const split = (image: string) => {
  const i = image.lastIndexOf(':');
  return { newName: image.slice(0, i), newTag: image.slice(i + 1) };
};

beforeAll(async () => {
  await deleteNamespace(NS);
  plan = await planGateway();
  dir = mkdtempSync(join(tmpdir(), 'parley-k8s-kustomize-'));
  const overlay = {
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    namespace: NS,
    resources: [relative(dir, join(repoRoot, 'k8s/overlays/dev'))],
    images: [
      ...PROCESSES.map((p) => ({
        name: `parley/${p}`,
        newName: `${IMAGES.prefix}/${p}`,
        newTag: IMAGES.tag,
      })),
      { name: 'postgres', ...split(IMAGES.postgres) },
      { name: 'nats', ...split(IMAGES.nats) },
    ],
    configMapGenerator: [
      { name: 'parley-common', behavior: 'merge', literals: [`PUBLIC_ORIGIN=${plan.url}`] },
    ],
    patches:
      plan.mode === 'nodeport'
        ? [
            {
              target: { kind: 'Service', name: 'gateway' },
              patch: JSON.stringify([
                { op: 'replace', path: '/spec/type', value: 'NodePort' },
                { op: 'add', path: '/spec/ports/0/nodePort', value: plan.port },
              ]),
            },
          ]
        : [],
  };
  writeFileSync(join(dir, 'kustomization.yaml'), JSON.stringify(overlay, null, 2));
  const t0 = Date.now();
  await kubectlOk(['apply', '-k', dir], { timeoutMs: 180_000 });
  const jobs = await kubectl(
    ['-n', NS, 'wait', '--for=condition=complete', 'job', '-l', 'parley.io/phase=migrate', '--timeout=600s'],
    { timeoutMs: 620_000 },
  );
  if (jobs.code !== 0) throw new Error(`the migration Jobs did not complete: ${jobs.err}`);
  for (const s of ['postgres', 'nats'])
    await kubectlOk(['-n', NS, 'rollout', 'status', `statefulset/${s}`, '--timeout=300s'], {
      timeoutMs: 320_000,
    });
  for (const p of PROCESSES) await rolloutStatus(NS, p, 600);
  figure('kubectl apply -k (the dev overlay) until every rollout is complete', seconds(Date.now() - t0));
  gateway = await openGateway(plan, NS, 'gateway');
  url = gateway.url;
});

afterAll(async () => {
  gateway?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  await cleanup(NS);
});

describe('the kustomize dev overlay, applied', () => {
  it('ran every migration Job, and every pod is Ready with no restart', async () => {
    const jobs = JSON.parse(await kubectlOk(['-n', NS, 'get', 'jobs', '-o', 'json'])).items as Array<{
      metadata: { name: string };
      status: { succeeded?: number };
    }>;
    expect(jobs.map((j) => j.metadata.name).sort()).toEqual(SERVICES.map((s) => `${s}-migrate`).sort());
    for (const j of jobs) expect(j.status.succeeded, j.metadata.name).toBe(1);
    const list = await pods(NS);
    figure('after apply', `${jobs.length} migration Jobs complete; ${describePods(list)}`);
    expect(list.map((p) => p.component).sort()).toEqual([...PROCESSES, 'postgres', 'nats'].sort());
    for (const p of list) {
      expect(p.ready, `${p.name} Ready`).toBe(true);
      expect(p.restarts, `${p.name} restarts`).toBe(0);
    }
  });

  it('serves the site, the blog and a booking whose confirmation reaches the local mailbox', async () => {
    const home = await fetch(`${url}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toMatch(/<title>[^<]*Parley/);
    expect((await api(url, '/api/blog')).status).toBe(200);
    const cookie = await adminSession(url, ADMIN);
    const email = `kustomize-${Date.now()}@example.com`;
    const t0 = Date.now();
    const booked = await bookDemo(url, email, 'Kustomize Visitor');
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const mail = await waitFor(
      'the confirmation in the local mailbox',
      async () => {
        const r = await api(url, '/api/admin/email/outbox', { cookie });
        return (r.body.items as Array<{ to: string; kind: string; hasCalendar: boolean }>).find(
          (m) => m.to === email && m.kind === 'booking_confirmation',
        );
      },
      120_000,
    );
    expect(mail.hasCalendar).toBe(true);
    figure(
      'site, blog, admin, booking',
      `200, 200, signed in, 201; confirmation in the mailbox after ${seconds(Date.now() - t0)}`,
    );
  });
});
