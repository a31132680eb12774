#!/usr/bin/env bash
# The whole test suite: build every package, then one vitest run over all of them (unit, wire,
# interop with the official clients, bridge, browser, conformance).
set -euo pipefail
cd "$(dirname "$0")/../.."
pnpm build
pnpm exec vitest run "$@"
