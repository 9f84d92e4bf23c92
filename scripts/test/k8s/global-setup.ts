/**
 * Vitest global setup of the Kubernetes tier (`pnpm test:k8s`):
 * - KUBECONFIG set: that cluster (kind, k3d, minikube, a cloud one). kubectl and helm come from
 *   PATH (or PARLEY_K8S_KUBECTL / PARLEY_K8S_HELM); the images must be where that cluster pulls
 *   from: PARLEY_IMAGE_PREFIX/<process>:PARLEY_IMAGE_TAG and :PARLEY_IMAGE_NEXT_TAG (the same
 *   images under a second tag, for the upgrade), PARLEY_POSTGRES_IMAGE and PARLEY_NATS_IMAGE.
 * - Otherwise, as root on Linux: the local cluster (`scripts/k8s/cluster.sh up`, which builds
 *   its binaries once per machine), the images (`scripts/images.sh`, skipped when
 *   PARLEY_K8S_IMAGES_READY=1 says they were just built), a second tag of them, and
 *   `cluster.sh load` of all of it. The cluster is taken down at the end when this run
 *   brought it up, unless PARLEY_K8S_KEEP=1.
 * Prints the time of each step; the test files read the cluster from the environment
 * (harness.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../lib/paths.ts';

const PROCESSES = ['gateway', 'identity', 'booking', 'blog', 'voice', 'email', 'settings'];

function step(what: string, cmd: string, args: string[], opts: { quiet?: boolean } = {}): string {
  const t0 = Date.now();
  const r = spawnSync(cmd, args, {
    cwd: repoRoot,
    encoding: 'utf8',
    stdio: opts.quiet ? 'pipe' : ['ignore', 'inherit', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0)
    throw new Error(`k8s tier: ${what} failed (${cmd} ${args.join(' ')}): ${r.stderr ?? ''}${r.error ?? ''}`);
  console.log(`k8s: ${what}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return r.stdout ?? '';
}

export default function setup(): () => void {
  const env = process.env;
  const tag = env.PARLEY_IMAGE_TAG ?? 'dev';
  env.PARLEY_IMAGE_TAG = tag;
  env.PARLEY_IMAGE_PREFIX = env.PARLEY_IMAGE_PREFIX ?? 'parley';
  env.PARLEY_IMAGE_NEXT_TAG = env.PARLEY_IMAGE_NEXT_TAG ?? `${tag}-next`;
  let takeDown = false;

  if (env.KUBECONFIG) {
    env.PARLEY_K8S_CLUSTER = 'external';
    console.log(`k8s: the cluster of KUBECONFIG=${env.KUBECONFIG}`);
  } else {
    if (process.platform !== 'linux' || process.getuid?.() !== 0)
      throw new Error(
        'k8s tier: no cluster: set KUBECONFIG (kind, k3d, minikube, a cloud cluster), or run as root on Linux for the local one (scripts/k8s/cluster.sh)',
      );
    env.PARLEY_K8S_CLUSTER = 'local';
    const cluster = join(repoRoot, 'scripts/k8s/cluster.sh');
    const wasUp = spawnSync('bash', [cluster, 'status'], { stdio: 'ignore' }).status === 0;
    step('cluster up (scripts/k8s/cluster.sh up)', 'bash', [cluster, 'up']);
    takeDown = !wasUp && env.PARLEY_K8S_KEEP !== '1';
    for (const line of step('cluster env', 'bash', [cluster, 'env'], { quiet: true }).split('\n')) {
      const m = /^export (KUBECONFIG|PATH)=(.*)$/.exec(line.trim());
      if (m?.[1] === 'KUBECONFIG') env.KUBECONFIG = m[2];
      if (m?.[1] === 'PATH') {
        const bin = (m[2] as string).replace(/:\$PATH$/, '').split(':');
        env.PARLEY_K8S_KUBECTL ??= join(bin[0] as string, 'kubectl');
        env.PARLEY_K8S_HELM ??= join(bin[1] as string, 'helm');
      }
    }
    env.PARLEY_K8S_NODE_ADDRESS ??= '127.0.0.1';
    if (env.PARLEY_K8S_IMAGES_READY !== '1') {
      step('images (scripts/images.sh)', 'bash', [join(repoRoot, 'scripts/images.sh'), '--tag', tag]);
    }
    const images = PROCESSES.map((p) => `${env.PARLEY_IMAGE_PREFIX}/${p}:${tag}`);
    const next = PROCESSES.map((p) => `${env.PARLEY_IMAGE_PREFIX}/${p}:${env.PARLEY_IMAGE_NEXT_TAG}`);
    images.forEach((image, i) => {
      const r = spawnSync('docker', ['tag', image, next[i] as string], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`k8s tier: docker tag ${image}: ${r.stderr}`);
    });
    const local = readFileSync(join(repoRoot, 'docker/images.env'), 'utf8');
    const named = (key: string) => new RegExp(`^${key}=(.+)$`, 'm').exec(local)?.[1]?.trim() as string;
    env.PARLEY_POSTGRES_IMAGE ??= named('LOCAL_POSTGRES_IMAGE');
    env.PARLEY_NATS_IMAGE ??= named('LOCAL_NATS_IMAGE');
    const postgres = env.PARLEY_POSTGRES_IMAGE;
    const nats = env.PARLEY_NATS_IMAGE;
    step('images loaded into the cluster (cluster.sh load)', 'bash', [
      cluster,
      'load',
      ...images,
      ...next,
      postgres,
      nats,
    ]);
  }
  env.PARLEY_K8S_KUBECTL ??= 'kubectl';
  env.PARLEY_K8S_HELM ??= existsSync(join(repoRoot, '.tools/bin/helm'))
    ? join(repoRoot, '.tools/bin/helm')
    : 'helm';
  const version = spawnSync(env.PARLEY_K8S_KUBECTL, ['version', '-o', 'json'], { encoding: 'utf8' });
  if (version.status !== 0) throw new Error(`k8s tier: kubectl cannot reach the cluster: ${version.stderr}`);
  const server = JSON.parse(version.stdout).serverVersion?.gitVersion;
  console.log(`k8s: Kubernetes ${server}; kubectl ${env.PARLEY_K8S_KUBECTL}; helm ${env.PARLEY_K8S_HELM}`);

  return () => {
    if (takeDown)
      step('cluster down (scripts/k8s/cluster.sh down)', 'bash', [
        join(repoRoot, 'scripts/k8s/cluster.sh'),
        'down',
      ]);
    else if (env.PARLEY_K8S_CLUSTER === 'local')
      console.log('k8s: the cluster stays up (it was up before, or PARLEY_K8S_KEEP=1)');
  };
}
