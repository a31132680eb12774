#!/usr/bin/env bash
# Installs what Rondo needs on a fresh Debian machine with Node 20. Plain, what the demo needs: pnpm,
# the workspace's packages and SWI-Prolog (when root; otherwise prints the command to run). With
# --tests, also what only the test suite needs: Chromium for the browser tests, and the Node 22 with
# the conformance runner (tooling/scripts/node22.sh; `pnpm test:all` installs it too), and Debian's
# redis-server and nginx, which the scale-out tests start. With --cluster, the demo's needs plus
# redis-server and nginx, for `pnpm cluster` (docs/scale-out.md). Safe to run again: each step is
# skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/../.."

for_tests=0
for_cluster=0
case "${1:-}" in
  --tests) for_tests=1; for_cluster=1 ;;
  --cluster) for_cluster=1 ;;
  "") ;;
  *) echo "usage: bootstrap.sh [--tests | --cluster]" >&2; exit 2 ;;
esac

PNPM_VERSION=12.4.2
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  echo "bootstrap: installing pnpm@$PNPM_VERSION" >&2
  npm install -g "pnpm@$PNPM_VERSION" >&2
fi

missing=()
command -v swipl >/dev/null 2>&1 || missing+=(swi-prolog-nox)
# The webhook tests make a self-signed certificate for their HTTPS receiver.
[ "$for_tests" = "0" ] || command -v openssl >/dev/null 2>&1 || missing+=(openssl)
[ "$for_tests" = "0" ] || [ "${RONDO_SKIP_BROWSER:-}" = "1" ] || command -v chromium >/dev/null 2>&1 || missing+=(chromium)
# Several Rondo processes sharing state (the scale-out tests, `pnpm cluster`): Redis and nginx.
if [ "$for_cluster" = "1" ]; then
  command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
  command -v nginx >/dev/null 2>&1 || [ -x "${RONDO_NGINX:-/usr/sbin/nginx}" ] || missing+=(nginx)
fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "bootstrap: installing ${missing[*]} with apt-get" >&2
    # shellcheck source=aptGet.sh
    source tooling/scripts/aptGet.sh
    apt_get update -qq
    apt_get install -y -qq "${missing[@]}"
  else
    echo "bootstrap: missing ${missing[*]}; run: sudo apt-get install -y ${missing[*]}" >&2
  fi
fi

pnpm install --frozen-lockfile >&2
if [ "$for_tests" = "1" ]; then bash tooling/scripts/node22.sh >/dev/null; fi
