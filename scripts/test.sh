#!/usr/bin/env bash
# `pnpm test`: every tier — types, lint, unit, integration (real PostgreSQL + NATS),
# and browser end-to-end (real Chromium against `pnpm start`). Ends with one summary line.
set -uo pipefail
cd "$(dirname "$0")/.."
node scripts/check-node.mjs || exit 1
export PRISMA_SCHEMA_ENGINE_BINARY=/bin/true
results_dir=$(mktemp -d)
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

step "unit tests"
pnpm -s exec vitest run --project unit --reporter=default --reporter=json --outputFile.json="$results_dir/unit.json" || status=1

step "web bundle (production)"
# Built once here (only when stale: a stamp in web/dist records the sources it was built from),
# before the integration tests start several platforms at once.
pnpm -s exec tsx scripts/build.ts || exit 1

step "integration tests (PostgreSQL + NATS)"
pnpm -s exec vitest run --project integration --reporter=default --reporter=json --outputFile.json="$results_dir/integration.json" || status=1

step "browser tests (Chromium)"
pnpm -s exec tsx scripts/e2e.ts "$results_dir/e2e.json" || status=1

node scripts/lib/summary.mjs "$results_dir" || status=1
exit $status
