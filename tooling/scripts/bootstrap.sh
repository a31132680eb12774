#!/usr/bin/env bash
# Installs what Rondo needs on a fresh Debian machine with Node 20: pnpm, the workspace's packages,
# SWI-Prolog and Chromium (when root; otherwise prints the command to run), and the Node 22 that only
# the conformance runner uses. Safe to run again: each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/../.."

PNPM_VERSION=12.4.2
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  echo "bootstrap: installing pnpm@$PNPM_VERSION" >&2
  npm install -g "pnpm@$PNPM_VERSION" >&2
fi

missing=()
command -v swipl >/dev/null 2>&1 || missing+=(swi-prolog-nox)
[ "${RONDO_SKIP_BROWSER:-}" = "1" ] || command -v chromium >/dev/null 2>&1 || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "bootstrap: installing ${missing[*]} with apt-get" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
  else
    echo "bootstrap: missing ${missing[*]}; run: sudo apt-get install -y ${missing[*]}" >&2
  fi
fi

pnpm install --frozen-lockfile >&2
if [ -f tooling/scripts/node22.sh ]; then bash tooling/scripts/node22.sh >/dev/null; fi
