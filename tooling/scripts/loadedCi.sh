#!/usr/bin/env bash
# The CI run under a synthetic load (issue 44, done-when 5): N CPU-bound processes (default 8, on
# this 2-core machine) run beside `bash .ci/run` in a fresh clone, as on a busy CI machine, and
# are ended when it ends. Prints .ci/run's closing line and the wall time.
#
#   bash tooling/scripts/loadedCi.sh [N] [clone folder]
#
# The clone is of this checkout's HEAD, with ../shared beside it when this checkout has one (a
# symlink), as CI lays it out.
set -uo pipefail
busy="${1:-8}"
here="$(cd "$(dirname "$0")/../.." && pwd)"
clone="${2:-$(mktemp -d /tmp/rondo-loaded-ci.XXXXXX)/rondo}"
git clone --quiet "$here" "$clone"
if [ -d "$here/../shared" ] && [ ! -e "$(dirname "$clone")/shared" ]; then
  ln -s "$(cd "$here/../shared" && pwd)" "$(dirname "$clone")/shared"
fi

pids=()
stop_load() { [ "${#pids[@]}" -eq 0 ] || kill "${pids[@]}" 2>/dev/null; }
trap stop_load EXIT
for _ in $(seq "$busy"); do
  # A busy loop in its own process: one core's worth of demand each.
  node -e 'for (;;) {}' &
  pids+=("$!")
done
echo "loaded-ci: $busy busy processes (pids ${pids[*]}), .ci/run in $clone" >&2

started=$(date +%s)
(cd "$clone" && bash .ci/run) > "$clone.log" 2>&1
status=$?
elapsed=$(( $(date +%s) - started ))
stop_load
pids=()
echo "loaded-ci: .ci/run exited $status after $((elapsed / 60)) min $((elapsed % 60)) s (log: $clone.log)"
grep -E '^([A-Za-z]+: )?[0-9]+ passed, [0-9]+ failed' "$clone.log" | tail -1
exit "$status"
