#!/usr/bin/env bash
# `pnpm test`: every tier — types, lint, unit, integration (real PostgreSQL + NATS, from
# containers where a container runtime exists), the images and compose (containers tier),
# browser end-to-end (real Chromium against `pnpm start`), and Kubernetes (the chart and
# kustomize on a real cluster: KUBECONFIG's, or the local one as root on Linux; `pnpm test:k8s`
# alone). The Kubernetes tier runs wherever a cluster can be had, in CI always;
# PARLEY_K8S_TIER=0 switches it off (the summary then names it as switched off). Ends with a
# summary that names any tier that could not run on this machine, and why; in CI every tier
# that is on must run.
set -uo pipefail
cd "$(dirname "$0")/.."
node scripts/check-node.mjs || exit 1
export PRISMA_SCHEMA_ENGINE_BINARY=/bin/true
results_dir=$(mktemp -d)
export PARLEY_TEST_RESULTS_DIR="$results_dir"
status=0

step() { echo; echo "== $1"; }

step "prerequisites (nats-server, chromium, deployment and load tools)"
bash scripts/prereqs.sh || exit 1

step "generate Prisma clients"
pnpm -s generate >/dev/null || exit 1

step "typecheck"
pnpm -s exec tsc -p tsconfig.json || status=1
pnpm -s --filter @parley/web exec tsc -p tsconfig.json --noEmit || status=1

step "lint"
pnpm -s exec biome check . || status=1
node scripts/check-deps.mjs || status=1

step "unit tests"
pnpm -s exec vitest run --project unit --reporter=default --reporter=json --outputFile.json="$results_dir/unit.json" || status=1

step "web bundle (production)"
# Built once here (only when stale: a stamp in web/dist records the sources it was built from),
# before the integration tests start several platforms at once.
pnpm -s exec tsx scripts/build.ts || exit 1

step "container images (scripts/images.sh)"
# A container runtime: the one running, or (as root on Debian) docker.io installed and started.
containers=false
if docker info >/dev/null 2>&1 || { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }; then
  if bash scripts/images.sh; then
    containers=true
  else
    echo "containers: scripts/images.sh failed" >"$results_dir/not-run-containers.txt"
    status=1
  fi
else
  echo "containers: no container runtime (docker info fails) and no root to install one" >"$results_dir/not-run-containers.txt"
fi
# CI proves the integration tier on the images Parley deploys beside (never the embedded fallback).
if [ "${CI:-}" = true ]; then export PARLEY_TEST_RUNTIME=containers; fi

step "integration tests (PostgreSQL + NATS)"
pnpm -s exec vitest run --project integration --reporter=default --reporter=json --outputFile.json="$results_dir/integration.json" || status=1

step "containers tier (images, compose)"
if $containers; then
  pnpm -s exec vitest run --project containers --reporter=default --reporter=json --outputFile.json="$results_dir/containers.json" || status=1
else
  cat "$results_dir/not-run-containers.txt"
fi

step "browser tests (Chromium)"
pnpm -s exec tsx scripts/e2e.ts "$results_dir/e2e.json" || status=1

step "Kubernetes tier (the chart and kustomize on a real cluster)"
# The cluster of KUBECONFIG, or (root on Linux) the local one that scripts/k8s/cluster.sh brings
# up, builds once per machine (its binaries cached in ~/.cache/parley/k8s) and takes down at the
# end (scripts/test/k8s/global-setup.ts). PARLEY_K8S_TIER=0 skips it (not in CI).
if [ "${PARLEY_K8S_TIER:-}" = 0 ] && [ "${CI:-}" != true ]; then
  echo "k8s: switched off (PARLEY_K8S_TIER=0)" >"$results_dir/off-k8s.txt"
  cat "$results_dir/off-k8s.txt"
elif [ -n "${KUBECONFIG:-}" ] || { [ "$(uname -s)" = Linux ] && [ "$(id -u)" = 0 ]; }; then
  # The images were just built above; otherwise the tier builds them itself.
  if $containers; then export PARLEY_K8S_IMAGES_READY=1; fi
  pnpm -s exec vitest run --project k8s --reporter=default --reporter=json --outputFile.json="$results_dir/k8s.json" || status=1
else
  echo "k8s: no cluster: KUBECONFIG is not set, and the local cluster (scripts/k8s/cluster.sh) needs root on Linux" >"$results_dir/not-run-k8s.txt"
  cat "$results_dir/not-run-k8s.txt"
fi

node scripts/lib/summary.mjs "$results_dir" || status=1
exit $status
