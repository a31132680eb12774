#!/usr/bin/env bash
# The whole test suite: build every package, then one vitest run over all of them (unit, wire,
# interop with the official clients, bridge, browser, conformance).
set -euo pipefail
cd "$(dirname "$0")/../.."
pnpm build
# The conformance runner and the Node 22 it needs, installed once here, before test files run in
# parallel (a no-op when bootstrap.sh --tests already did it).
bash tooling/scripts/node22.sh >/dev/null
pnpm exec vitest run "$@"
