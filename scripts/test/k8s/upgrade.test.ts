/**
 * The production shape: PostgreSQL and NATS outside the release (here the chart's own subcharts
 * installed as releases of their own, the databases created by their operator), so migrations
 * run as the chart's pre-install and pre-upgrade hook Jobs and the Deployments never migrate.
 * Then, with a steady request loop running against the gateway's Service, a rolling restart,
 * `helm upgrade` to a new image tag (the same images, tagged again: every Deployment rolls) and
 * `helm rollback`: all must succeed without a failed request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHART,
  cleanup,
  deployments,
  describePods,
  describeTraffic,
  figure,
  freshNamespace,
  type GatewayPlan,
  helmRelease,
  IMAGES,
  kubectlJson,
  kubectlOk,
  openGateway,
  PROCESSES,
  planGateway,
  platformValues,
  pods,
  rolloutStatus,
  SERVICES,
  seconds,
  steadyTraffic,
  valuesFile,
  waitFor,
  watchJobs,
} from './harness.ts';

const NS = 'parley-k8s-upgrade';
const RELEASE = 'parley';
const external = {
  postgresHost: 'db-postgresql',
  passwordSecret: 'db-postgresql',
  passwordKey: 'password',
  natsUrl: 'nats://bus-nats:4222',
};
let plan: GatewayPlan;
let gateway: { url: string; close: () => void } | undefined;
let url = '';
let migrateJobs = new Map<string, string>();

/** The Jobs seen while `during` runs (hook Jobs are deleted once they succeed). */
async function watchingJobs<T>(during: Promise<T>): Promise<{ result: T; jobs: Map<string, string> }> {
  const watch = watchJobs(NS);
  try {
    return { result: await during, jobs: watch.stop() };
  } finally {
    watch.stop();
  }
}

const migrationJobsOf = (jobs: Map<string, string>) =>
  [...jobs].filter(([name]) => name.endsWith('-migrate')).sort(([a], [b]) => a.localeCompare(b));

beforeAll(async () => {
  await freshNamespace(NS);
  // The operator's part: a server with one database per service, and a NATS with JetStream.
  const databases = SERVICES.map((s) => `CREATE DATABASE parley_${s} OWNER parley;`).join('\n');
  await kubectlOk([
    '-n',
    NS,
    'create',
    'configmap',
    'db-postgresql-init',
    `--from-literal=10-databases.sql=${databases}`,
  ]);
  const infra = await Promise.all([
    helmRelease('install', 'db', NS, {
      chart: `${CHART}/charts/postgresql`,
      args: ['--set', `image=${IMAGES.postgres}`, '--set', 'storage=1Gi'],
    }),
    helmRelease('install', 'bus', NS, {
      chart: `${CHART}/charts/nats`,
      args: ['--set', `image=${IMAGES.nats}`, '--set', 'storage=1Gi'],
    }),
  ]);
  figure('external PostgreSQL and NATS (their own releases)', `ready in ${seconds(Math.max(...infra))}`);
  plan = await planGateway();
  const values = valuesFile(platformValues({ gateway: plan, external }));
  const { result: ms, jobs } = await watchingJobs(
    helmRelease('install', RELEASE, NS, { args: ['-f', values] }),
  );
  migrateJobs = jobs;
  figure('helm install --wait (migrations as pre-install hook Jobs)', seconds(ms));
  gateway = await openGateway(plan, NS, `${RELEASE}-gateway`);
  url = gateway.url;
});

afterAll(async () => {
  gateway?.close();
  await cleanup(NS);
});

/** Every Deployment of the release runs `tag` and is fully rolled out, every pod Ready. */
async function expectRolledOutOn(tag: string) {
  const ds = (await deployments(NS)).filter((d) => d.name.startsWith(`${RELEASE}-`));
  expect(ds.map((d) => d.component).sort()).toEqual([...PROCESSES].sort());
  for (const d of ds) {
    expect(d.images, d.name).toEqual([`${IMAGES.prefix}/${d.component}:${tag}`]);
    expect(d.updated, d.name).toBe(d.replicas);
    expect(d.ready, d.name).toBe(d.replicas);
  }
  const list = (await pods(NS)).filter((p) => !p.deleting);
  for (const p of list) {
    expect(p.ready, `${p.name} Ready`).toBe(true);
    expect(p.restarts, `${p.name} restarts`).toBe(0);
  }
  return list;
}

describe('the chart against an external PostgreSQL and NATS', () => {
  it('migrated every database with the hook Jobs; the Deployments do not migrate', async () => {
    const seen = migrationJobsOf(migrateJobs);
    expect(seen.map(([name]) => name)).toEqual(SERVICES.map((s) => `${RELEASE}-${s}-migrate`).sort());
    for (const s of SERVICES) {
      const cm = await kubectlJson(['-n', NS, 'get', 'configmap', `${RELEASE}-${s}-env`]);
      expect(cm.data.MIGRATE_ON_START, s).toBe('false');
      const applied = await kubectlOk([
        '-n',
        NS,
        'exec',
        'db-postgresql-0',
        '--',
        'psql',
        '-U',
        'parley',
        '-d',
        `parley_${s}`,
        '-tAc',
        'SELECT count(*) FROM "_prisma_migrations" WHERE finished_at IS NOT NULL',
      ]);
      expect(Number(applied), `${s}'s applied migrations`).toBeGreaterThan(0);
    }
    const list = await expectRolledOutOn(IMAGES.tag);
    figure('after install', `${seen.length} migration Jobs ran; ${describePods(list)}`);
  });

  it('restarts, upgrades to a new image tag and rolls back, with traffic flowing and no failed request', async () => {
    const traffic = steadyTraffic(url, { workers: 2, pauseMs: 100, bookEveryMs: 5000 });
    let result: Awaited<ReturnType<typeof traffic.stop>>;
    try {
      await waitFor('traffic flowing', async () => (traffic.requests >= 20 ? true : undefined), 60_000);

      // A rolling restart (new pods, same spec), as an operator does after a Secret changes.
      const restarted = ['gateway', 'booking'].map((p) => `deployment/${RELEASE}-${p}`);
      const t0 = Date.now();
      await kubectlOk(['-n', NS, 'rollout', 'restart', ...restarted]);
      for (const p of ['gateway', 'booking']) await rolloutStatus(NS, `${RELEASE}-${p}`);
      figure('kubectl rollout restart (gateway, booking)', `complete in ${seconds(Date.now() - t0)}`);

      const next = valuesFile(platformValues({ gateway: plan, external, tag: IMAGES.nextTag }));
      const before = traffic.requests;
      const { result: upgradeMs, jobs } = await watchingJobs(
        helmRelease('upgrade', RELEASE, NS, { args: ['-f', next] }),
      );
      const upgraded = migrationJobsOf(jobs);
      expect(upgraded.map(([, image]) => image)).toEqual(
        upgraded.map(
          ([name]) =>
            `${IMAGES.prefix}/${name.replace(`${RELEASE}-`, '').replace(/-migrate$/, '')}:${IMAGES.nextTag}`,
        ),
      );
      expect(upgraded).toHaveLength(SERVICES.length);
      let list = await expectRolledOutOn(IMAGES.nextTag);
      figure(
        `helm upgrade --wait to :${IMAGES.nextTag}`,
        `${seconds(upgradeMs)}, ${upgraded.length} pre-upgrade migration Jobs on the new tag; ${describePods(list)}; ${traffic.requests - before} requests meanwhile`,
      );

      const mid = traffic.requests;
      const rollbackMs = await helmRelease('rollback', RELEASE, NS, { args: ['1'] });
      list = await expectRolledOutOn(IMAGES.tag);
      figure(
        `helm rollback --wait to revision 1 (:${IMAGES.tag})`,
        `${seconds(rollbackMs)}; ${describePods(list)}; ${traffic.requests - mid} requests meanwhile`,
      );
      await waitFor(
        'traffic after the rollback',
        async () => (traffic.requests >= mid + 20 ? true : undefined),
        60_000,
      );
    } finally {
      result = await traffic.stop();
      figure('steady traffic during the restart, upgrade and rollback', describeTraffic(result));
    }
    expect(result.failures, describeTraffic(result)).toBe(0);
    expect(traffic.bookings.length, 'bookings made meanwhile').toBeGreaterThan(0);
  });
});
