/**
 * The chart installed for real (`helm install --wait`) with its bundled PostgreSQL and NATS,
 * every process but one, and checked through the gateway's Service: every pod Ready with no
 * restart, hardened pods, the site and blog, an admin's sign-in, a booking whose confirmation
 * travels booking → NATS → email → SMTP into a sink in the cluster, as one trace; every
 * process's metrics; then an upgrade that enables the missing service (its database is
 * created by the chart's hook Job), the production values' HPA and PDB objects accepted by the
 * API server, each Deployment scaled alone, and every Deployment rolled under k6 load with no
 * failed request and every booking made meanwhile confirmed; the NATS pod deleted mid-traffic
 * with every service staying Ready and every committed event delivered once it is back; a
 * per-client budget that holds across 3 gateway and 3 booking replicas.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../lib/paths.ts';
import { BIN } from '../tools.ts';
import {
  adminSession,
  api,
  bookDemo,
  CHART,
  cleanup,
  deployments,
  describePods,
  describeTraffic,
  eachConfirmedOnce,
  figure,
  freshNamespace,
  type GatewayPlan,
  helm,
  helmRelease,
  kubectl,
  kubectlOk,
  mailToSink,
  openGateway,
  PROCESSES,
  planGateway,
  platformValues,
  pods,
  rolloutStatus,
  Sink,
  seconds,
  settled,
  steadyTraffic,
  valuesFile,
  waitFor,
} from './harness.ts';

const NS = 'parley-k8s-platform';
const RELEASE = 'parley';
/** Installed disabled, enabled by the upgrade. */
const LATER = 'voice';
/** The campaign's readers, and the email replicas that send it (they share the send). */
const CAMPAIGN_RECIPIENTS = 20_000;
const EMAIL_REPLICAS = 3;
const sink = new Sink(NS);
let plan: GatewayPlan;
let gateway: { url: string; close: () => void } | undefined;
let url = '';
let cookie = '';

beforeAll(async () => {
  await freshNamespace(NS);
  await sink.deploy();
  plan = await planGateway();
  const values = valuesFile(platformValues({ gateway: plan, disabled: [LATER], otel: sink.otlpEndpoint }));
  const ms = await helmRelease('install', RELEASE, NS, { args: ['-f', values] });
  figure(`helm install --wait (every process but ${LATER}, PostgreSQL, NATS)`, seconds(ms));
  gateway = await openGateway(plan, NS, `${RELEASE}-gateway`);
  url = gateway.url;
});

afterAll(async () => {
  gateway?.close();
  await cleanup(NS);
});

const installed = PROCESSES.filter((p) => p !== LATER);

describe('the chart, installed with its bundled PostgreSQL and NATS', () => {
  it('has every pod Ready, and none restarted', async () => {
    const list = await pods(NS);
    figure('after install', describePods(list));
    expect(list.map((p) => p.component).sort()).toEqual([...installed, 'postgresql', 'nats', 'sink'].sort());
    for (const p of list) {
      expect(p.ready, `${p.name} Ready`).toBe(true);
      expect(p.restarts, `${p.name} restarts`).toBe(0);
    }
  });

  it('runs every process as uid 10001 on a read-only root, writing only to /tmp', async () => {
    const probe = `const fs = require('fs'); const tryWrite = (p) => { try { fs.writeFileSync(p, 'x'); fs.rmSync(p); return 'ok'; } catch (e) { return e.code; } }; console.log(JSON.stringify({ uid: process.getuid(), app: tryWrite('/app/probe'), tmp: tryWrite('/tmp/probe') }))`;
    for (const p of installed) {
      const out = await kubectlOk([
        '-n',
        NS,
        'exec',
        `deployment/${RELEASE}-${p}`,
        '--',
        'node',
        '-e',
        probe,
      ]);
      expect(JSON.parse(out), p).toEqual({ uid: 10001, app: 'EROFS', tmp: 'ok' });
    }
    const spec = JSON.parse(await kubectlOk(['-n', NS, 'get', `deployment/${RELEASE}-booking`, '-o', 'json']))
      .spec.template.spec;
    expect(spec.automountServiceAccountToken).toBe(false);
    expect(spec.securityContext).toMatchObject({
      runAsNonRoot: true,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(spec.containers[0].securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    figure('hardening', `${installed.length} processes: uid 10001, root filesystem EROFS, /tmp writable`);
  });

  it('serves the site and the blog through the gateway Service', async () => {
    const home = await fetch(`${url}/`);
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(html).toMatch(/<title>[^<]*Parley/);
    expect(html).toMatch(/<div id="root"[^>]*>/);
    const blog = await api(url, '/api/blog');
    expect(blog.status).toBe(200);
    expect(Array.isArray(blog.body)).toBe(true);
    const ready = await api(url, '/health/ready');
    expect(ready.status).toBe(200);
    figure(
      'site and blog',
      `GET / 200 (${html.length} bytes), GET /api/blog 200 (${blog.body.length} posts), via ${plan.mode} ${url}`,
    );
  });

  it('signs the first admin in', async () => {
    cookie = await adminSession(url);
    const me = await api(url, '/api/admin/me', { cookie });
    expect(me.status).toBe(200);
    figure('admin sign-in', `200, /api/admin/me 200`);
  });

  it('books a demo: its confirmation reaches the sink in the cluster, and the booking is one trace', async () => {
    expect(cookie, 'the admin signed in').not.toBe('');
    await mailToSink(url, cookie, sink);
    const email = `visitor-${Date.now()}@example.com`;
    const traceId = randomBytes(16).toString('hex');
    const t0 = Date.now();
    const booked = await bookDemo(url, email, 'Cluster Visitor', {
      traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const mail = await sink.waitForMessage(email, (m) => m.raw?.includes('text/calendar') ?? false, 120_000);
    const ms = Date.now() - t0;
    expect(mail.to).toEqual([email]);
    expect(mail.bareLineBreaks, 'CRLF only').toBe(false);
    expect(mail.raw).toMatch(/METHOD:REQUEST/);
    // Exactly one confirmation, however many replicas and redeliveries.
    expect((await sink.recipients())[email]).toBe(1);
    figure(
      'booking → NATS → email → SMTP sink',
      `201, confirmation with its invitation in the sink after ${seconds(ms)}`,
    );
    // gateway → booking → outbox → NATS → email's consumer: one trace, exported by each pod.
    const spans = await waitFor(
      'the booking trace from gateway, booking and email',
      async () => {
        const found = await sink.spans(traceId);
        const services = new Set(found.map((x) => x.service));
        return ['gateway', 'booking', 'email'].every((x) => services.has(x)) ? found : undefined;
      },
      120_000,
    );
    figure(
      'the booking as one trace',
      `${spans.length} spans of trace ${traceId.slice(0, 8)}…: ${[...new Set(spans.map((x) => `${x.service}`))].join(', ')}`,
    );
  });

  it(`sends a campaign from ${EMAIL_REPLICAS} email replicas: each of its ${CAMPAIGN_RECIPIENTS} recipients gets exactly one mail in the sink`, async () => {
    expect(cookie, 'the admin signed in').not.toBe('');
    // The mail settings point at the sink since the booking's check; here they are checked.
    const t0 = Date.now();
    await kubectlOk(['-n', NS, 'scale', `deployment/${RELEASE}-email`, `--replicas=${EMAIL_REPLICAS}`]);
    await rolloutStatus(NS, `${RELEASE}-email`);
    const book = await api(url, '/api/admin/address-books', { body: { name: 'Cluster readers' }, cookie });
    expect(book.status, JSON.stringify(book.body)).toBe(201);
    const readers = Array.from({ length: CAMPAIGN_RECIPIENTS }, (_, i) => `reader${i + 1}@readers.example`);
    // In parts: a manual import takes at most a million characters.
    const PART = 5000;
    for (let from = 0; from < readers.length; from += PART) {
      const part = readers.slice(from, from + PART);
      const imported = await api(url, '/api/admin/email/import-manual', {
        body: {
          contacts: part.map((r, i) => `${r},Reader${from + i + 1},Cluster`).join('\n'),
          addressBookId: book.body.id,
        },
        cookie,
      });
      expect([200, 202], JSON.stringify(imported.body)).toContain(imported.status);
      const done = await waitFor(
        'the contact import complete',
        async () => {
          const r = await api(url, `/api/admin/email/imports/${imported.body.importId}`, { cookie });
          if (r.body?.status === 'running') return undefined;
          return r.body;
        },
        120_000,
      );
      expect(done).toMatchObject({ status: 'completed', imported: part.length, errorCount: 0 });
    }
    const created = await api(url, '/api/admin/email/campaigns', {
      body: {
        name: 'Cluster campaign',
        subject: 'News for {{firstName}}',
        fromName: 'Parley',
        fromEmail: 'news@parley.k8s.test',
        htmlContent: '<p>Hello {{firstName}}, this came through the cluster.</p>',
        targetAddressBooks: [book.body.id],
      },
      cookie,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const launched = Date.now();
    const sent = await api(url, `/api/admin/email/campaigns/${created.body.id}/send`, {
      body: { confirmSend: true },
      cookie,
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.recipients).toBe(CAMPAIGN_RECIPIENTS);
    const campaign = await waitFor(
      'the campaign sent',
      async () => {
        const r = await api(url, `/api/admin/email/campaigns/${created.body.id}`, { cookie });
        return r.body?.status === 'sent' ? r.body : undefined;
      },
      300_000,
    );
    const sendMs = Date.now() - launched;
    expect(campaign.status).toBe('sent');
    // Every reader exactly once: none missing, none twice, nothing else of the campaign's domain.
    const counts = await sink.recipients();
    const got = Object.entries(counts).filter(([to]) => to.endsWith('@readers.example'));
    expect(got.length, 'readers that got a mail').toBe(CAMPAIGN_RECIPIENTS);
    expect(
      got.filter(([, n]) => n !== 1),
      'readers with more than one mail',
    ).toEqual([]);
    const sample = (await sink.messages(readers[0])).at(0);
    expect(sample?.subject).toBe('News for Reader1');
    expect(sample?.bareLineBreaks, 'CRLF only').toBe(false);
    figure(
      `campaign from ${EMAIL_REPLICAS} email replicas`,
      `${got.length} of ${CAMPAIGN_RECIPIENTS} recipients got exactly one mail; sent in ${seconds(sendMs)} (${seconds(launched - t0)} to scale, import and create)`,
    );
    await kubectlOk(['-n', NS, 'scale', `deployment/${RELEASE}-email`, '--replicas=1']);
    await waitFor(
      'email back at 1 replica',
      async () => {
        const x = (await deployments(NS)).find((y) => y.name === `${RELEASE}-email`);
        return x && x.replicas === 1 && x.ready === 1 ? true : undefined;
      },
      120_000,
    );
    await settled(NS);
  });

  it("serves every process's metrics (read through the API server's service proxy)", async () => {
    const metricsOf = async (service: string, port: string) =>
      kubectlOk(['get', '--raw', `/api/v1/namespaces/${NS}/services/${service}:${port}/proxy/metrics`]);
    const gatewayMetrics = await metricsOf(
      plan.mode === 'nodeport' ? `${RELEASE}-gateway-metrics` : `${RELEASE}-gateway`,
      'metrics',
    );
    expect(gatewayMetrics).toMatch(/^http_server_requests_total\{[^}]*service="gateway"/m);
    for (const p of installed.filter((x) => x !== 'gateway')) {
      const text = await metricsOf(`${RELEASE}-${p}`, 'http');
      expect(text, p).toMatch(/^db_pool_connections/m);
      expect(text, p).toMatch(/^bus_connected\S* 1$/m);
    }
    figure('metrics', `${installed.length} processes answer /metrics (requests, pools, bus connected)`);
  });

  it(`creates the database of a service enabled by a later upgrade (${LATER}), which starts cleanly`, async () => {
    const values = valuesFile(platformValues({ gateway: plan, otel: sink.otlpEndpoint }));
    const ms = await helmRelease('upgrade', RELEASE, NS, { args: ['-f', values] });
    figure(`helm upgrade --wait enabling ${LATER}`, seconds(ms));
    const databases = (
      await kubectlOk([
        '-n',
        NS,
        'exec',
        `${RELEASE}-postgresql-0`,
        '--',
        'psql',
        '-U',
        'parley',
        '-d',
        'parley',
        '-tAc',
        "SELECT datname FROM pg_database WHERE datname LIKE 'parley\\_%' ORDER BY 1",
      ])
    ).split('\n');
    expect(databases).toContain(`parley_${LATER}`);
    // The gateway rolled (it learnt VOICE_URL); the old one, which knows no voice, is leaving.
    const list = await settled(NS);
    figure('after the upgrade', describePods(list));
    const later = list.filter((p) => p.component === LATER);
    expect(later).toHaveLength(1);
    for (const p of list) {
      expect(p.ready, `${p.name} Ready`).toBe(true);
      expect(p.restarts, `${p.name} restarts`).toBe(0);
    }
    const speech = await fetch(`${url}/api/voice/text-to-speech`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ text: 'Hello from the cluster.' }),
    });
    expect(speech.status).toBe(200);
    expect(speech.headers.get('content-type')).toContain('audio/mpeg');
    figure(
      `${LATER} enabled`,
      `database parley_${LATER} created by the hook Job; pod Ready, 0 restarts; speech 200`,
    );
  });

  it("accepts the production values' HPA and PDB objects (server-side dry run)", async () => {
    const rendered = await helm([
      'template',
      RELEASE,
      CHART,
      '-n',
      NS,
      '-f',
      `${CHART}/ci/production-values.yaml`,
      '--show-only',
      'templates/hpa.yaml',
      '--show-only',
      'templates/pdb.yaml',
    ]);
    expect(rendered.code, rendered.err).toBe(0);
    const applied = await kubectl(['-n', NS, 'apply', '--dry-run=server', '-f', '-'], {
      input: rendered.out,
    });
    expect(applied.code, applied.err).toBe(0);
    const lines = applied.out.split('\n');
    const hpas = lines.filter((l) =>
      /^horizontalpodautoscaler\.autoscaling\/\S+ created \(server dry run\)$/.test(l),
    );
    const pdbs = lines.filter((l) => /^poddisruptionbudget\.policy\/\S+ created \(server dry run\)$/.test(l));
    expect(hpas).toHaveLength(PROCESSES.length);
    expect(pdbs).toHaveLength(PROCESSES.length);
    const metricsApi = await kubectl(['get', 'apiservice', 'v1beta1.metrics.k8s.io']);
    figure(
      'production HPA and PDB',
      `${hpas.length} HPAs and ${pdbs.length} PDBs accepted (server-side dry run); metrics-server ${
        metricsApi.code === 0 ? 'present' : 'absent (an HPA would not scale here)'
      }`,
    );
  });

  it('scales each Deployment alone', async () => {
    for (const d of await deployments(NS)) {
      if (d.name === sink.name) continue;
      const before = await deployments(NS);
      const podsBefore = (await pods(NS)).filter((p) => !p.deleting && p.component !== d.component);
      const t0 = Date.now();
      await kubectlOk(['-n', NS, 'scale', `deployment/${d.name}`, '--replicas=2']);
      await rolloutStatus(NS, d.name);
      const ms = Date.now() - t0;
      const own = (await pods(NS)).filter((p) => !p.deleting && p.component === d.component);
      expect(own, d.name).toHaveLength(2);
      for (const p of own) {
        expect(p.ready, `${p.name} Ready`).toBe(true);
        expect(p.restarts, `${p.name} restarts`).toBe(0);
      }
      // The others: same replicas, same generation, the very same pods.
      const after = await deployments(NS);
      for (const o of before.filter((x) => x.name !== d.name)) {
        const now = after.find((x) => x.name === o.name);
        expect(now?.replicas, o.name).toBe(o.replicas);
        expect(now?.generation, o.name).toBe(o.generation);
      }
      const podsAfter = (await pods(NS)).filter((p) => !p.deleting && p.component !== d.component);
      expect(podsAfter.map((p) => p.uid).sort(), `pods beside ${d.name}`).toEqual(
        podsBefore.map((p) => p.uid).sort(),
      );
      figure(`scale ${d.name} 1 → 2`, `Ready in ${seconds(ms)}; ${podsAfter.length} other pods unchanged`);
      await kubectlOk(['-n', NS, 'scale', `deployment/${d.name}`, '--replicas=1']);
      await waitFor(
        `${d.name} back at 1 replica`,
        async () => {
          const x = (await deployments(NS)).find((y) => y.name === d.name);
          return x && x.replicas === 1 && x.ready === 1 ? true : undefined;
        },
        120_000,
      );
    }
  });

  it('holds the per-client booking budget (20 a minute) across 3 gateway and 3 booking replicas', async () => {
    for (const p of ['gateway', 'booking'])
      await kubectlOk(['-n', NS, 'scale', `deployment/${RELEASE}-${p}`, '--replicas=3']);
    for (const p of ['gateway', 'booking']) await rolloutStatus(NS, `${RELEASE}-${p}`);
    // Earlier checks booked from this client too: a minute of quiet starts its budget afresh.
    await new Promise((r) => setTimeout(r, 61_000));
    const slots: string[] = [];
    for (let day = 1; day <= 30 && slots.length < 45; day++) {
      const date = new Date(Date.now() + day * 86_400_000).toISOString().slice(0, 10);
      const r = await api(url, `/api/bookings/available?date=${date}`);
      slots.push(...((r.body?.availableSlots as string[] | undefined) ?? []));
    }
    expect(slots.length, 'free slots to book').toBeGreaterThanOrEqual(45);
    // Each booking on a connection of its own, so the Service spreads them over the replicas.
    const post = (i: number) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify({
          name: `Budget ${i}`,
          email: `budget-${i}-${Date.now()}@example.com`,
          timeSlot: slots[i],
        });
        const req = httpRequest(
          `${url}/api/bookings`,
          {
            method: 'POST',
            agent: false,
            headers: { 'content-type': 'application/json', origin: url, connection: 'close' },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    const statuses: number[] = [];
    // The client's window starts with its first booking here.
    const windowStart = Date.now();
    for (let wave = 0; wave < 9; wave++)
      statuses.push(...(await Promise.all(Array.from({ length: 5 }, (_, j) => post(wave * 5 + j)))));
    const tally: Record<number, number> = {};
    for (const st of statuses) tally[st] = (tally[st] ?? 0) + 1;
    figure(
      'booking budget with 3 gateway and 3 booking replicas',
      `45 bookings from one client: ${JSON.stringify(tally)}`,
    );
    expect(tally).toEqual({ 201: 20, 429: 25 });
    for (const p of ['gateway', 'booking'])
      await kubectlOk(['-n', NS, 'scale', `deployment/${RELEASE}-${p}`, '--replicas=1']);
    await waitFor(
      'gateway and booking back at 1 replica',
      async () => {
        const ds = (await deployments(NS)).filter((d) =>
          [`${RELEASE}-gateway`, `${RELEASE}-booking`].includes(d.name),
        );
        return ds.every((d) => d.replicas === 1 && d.ready === 1) ? true : undefined;
      },
      120_000,
    );
    await settled(NS);
    // The next checks book from this client too: they start once its spent window has ended.
    const rest = windowStart + 61_000 - Date.now();
    if (rest > 0) await new Promise((r) => setTimeout(r, rest));
  });

  it('keeps every service Ready while the NATS pod is deleted mid-traffic, and delivers every committed event once it is back', async () => {
    const traffic = steadyTraffic(url, { workers: 1, pauseMs: 250, bookEveryMs: 4000 });
    const notReady = new Set<string>();
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        for (const p of await pods(NS))
          if (!p.deleting && p.component !== 'nats' && !p.ready) notReady.add(p.name);
        await new Promise((r) => setTimeout(r, 1000));
      }
    })();
    let result: Awaited<ReturnType<typeof traffic.stop>>;
    let away = 0;
    let madeWhileAway = 0;
    try {
      await waitFor('traffic flowing', async () => (traffic.bookings.length >= 1 ? true : undefined), 60_000);
      const nats = (await pods(NS)).find((p) => p.component === 'nats' && !p.deleting);
      expect(nats, 'the NATS pod').toBeDefined();
      const before = traffic.bookings.length;
      const t0 = Date.now();
      await kubectlOk(['-n', NS, 'delete', 'pod', nats?.name as string, '--wait=false']);
      await waitFor(
        'NATS back (a new pod, Ready)',
        async () =>
          (await pods(NS)).some(
            (p) => p.component === 'nats' && !p.deleting && p.ready && p.uid !== nats?.uid,
          )
            ? true
            : undefined,
        180_000,
      );
      away = Date.now() - t0;
      madeWhileAway = traffic.bookings.length - before;
      // A few more after its return, then the loop stops.
      const back = traffic.bookings.length;
      await waitFor(
        'bookings after NATS is back',
        async () => (traffic.bookings.length >= back + 2 ? true : undefined),
        60_000,
      );
    } finally {
      result = await traffic.stop();
      watching = false;
      await watcher;
    }
    figure('steady traffic across the NATS pod deletion', describeTraffic(result));
    expect(result.failures, describeTraffic(result)).toBe(0);
    expect([...notReady], 'pods that were not Ready meanwhile').toEqual([]);
    const late = await eachConfirmedOnce(sink, traffic.bookings, 'NATS back');
    figure(
      'NATS pod deleted',
      `back Ready after ${seconds(away)}; ${madeWhileAway} bookings committed meanwhile; all ${traffic.bookings.length} bookings' events delivered, each confirmation exactly once (${seconds(late)} after the loop stopped); every service pod stayed Ready`,
    );
  });

  it('rolls every Deployment under k6 load: no failed request, and every booking made meanwhile is confirmed', async () => {
    // k6's public browsing at its load profile (20 users, 4 minutes); its latency thresholds
    // are not this check's (a 2-core node rolling seven Deployments), its failures are.
    const dir = mkdtempSync(join(tmpdir(), 'parley-k8s-k6-'));
    const k6 = spawn(
      BIN.k6,
      ['run', '--quiet', '--no-color', '--no-thresholds', 'scripts/k6/public-browsing.ts'],
      {
        cwd: repoRoot,
        env: { ...process.env, BASE_URL: url, SCENARIO: 'load', K6_SUMMARY_DIR: dir },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let k6Err = '';
    k6.stderr?.on('data', (d) => {
      k6Err = (k6Err + d).slice(-4000);
    });
    // A k6 that cannot start (not installed: `scripts/tools.sh`) fails the check, never hangs it.
    const k6Done = new Promise<number>((resolve) => {
      k6.once('exit', (code) => resolve(code ?? 1));
      k6.once('error', (err) => {
        k6Err += `k6 did not start (${BIN.k6}): ${err.message}`;
        resolve(1);
      });
    });
    const traffic = steadyTraffic(url, { workers: 1, pauseMs: 250, bookEveryMs: 4000 });
    let result: Awaited<ReturnType<typeof traffic.stop>>;
    try {
      // Into the profile's steady part, then every Deployment of the release restarted at once.
      await new Promise((r) => setTimeout(r, 35_000));
      const ds = (await deployments(NS)).filter((d) => d.name !== sink.name);
      const t0 = Date.now();
      await kubectlOk(['-n', NS, 'rollout', 'restart', ...ds.map((d) => `deployment/${d.name}`)]);
      for (const d of ds) await rolloutStatus(NS, d.name);
      figure(
        `kubectl rollout restart (${ds.length} Deployments at once)`,
        `complete in ${seconds(Date.now() - t0)}`,
      );
    } finally {
      result = await traffic.stop();
    }
    const code = await k6Done;
    expect(code, k6Err).toBe(0);
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as {
      metrics: Record<string, { values: Record<string, number> }>;
    };
    rmSync(dir, { recursive: true, force: true });
    const requests = summary.metrics.http_reqs?.values.count ?? 0;
    const failedRate = summary.metrics.http_req_failed?.values.rate ?? 1;
    const checks = summary.metrics.checks?.values.rate ?? 0;
    figure(
      'k6 public browsing (load) during the roll',
      `${requests} requests, failed ${(failedRate * 100).toFixed(2)} %, checks passed ${(checks * 100).toFixed(2)} %`,
    );
    figure('steady traffic with bookings during the roll', describeTraffic(result));
    expect(requests).toBeGreaterThan(100);
    expect(failedRate, 'k6 requests failed').toBe(0);
    expect(checks, 'k6 checks passed').toBe(1);
    expect(result.failures, describeTraffic(result)).toBe(0);
    expect(traffic.bookings.length, 'bookings made during the roll').toBeGreaterThan(0);
    // No event lost: each booking's confirmation arrives, exactly once.
    const late = await eachConfirmedOnce(sink, traffic.bookings, 'made during the roll');
    figure(
      'bookings during the roll',
      `${traffic.bookings.length} made, each confirmed exactly once (the last ${seconds(late)} after the roll)`,
    );
    const list = (await pods(NS)).filter((p) => !p.deleting);
    for (const p of list) expect(p.restarts, `${p.name} restarts`).toBe(0);
  });
});
