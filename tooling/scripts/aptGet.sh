# Sourced by bootstrap.sh: apt_get runs apt-get, waiting while another apt holds its lock
# (unattended-upgrades, a second bootstrap on the same machine) instead of failing at once.
# RONDO_APT_WAIT: how long to wait in all, in seconds (default 900); RONDO_APT_POLL: between tries.

apt_get() {
  local waited=0 limit="${RONDO_APT_WAIT:-900}" poll="${RONDO_APT_POLL:-10}" output
  while :; do
    # DPkg::Lock::Timeout makes apt wait for dpkg's lock itself; the lists lock of `update` is
    # waited for by the loop.
    if output=$(DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout="$poll" "$@" 2>&1); then
      [ -z "$output" ] || printf '%s\n' "$output" >&2
      return 0
    fi
    if ! grep -qE 'Could not get lock|Unable to acquire the dpkg frontend lock|Unable to lock' <<<"$output" ||
      [ "$waited" -ge "$limit" ]; then
      printf '%s\n' "$output" >&2
      return 1
    fi
    echo "bootstrap: another apt holds its lock; waiting (${waited} s of ${limit} s)" >&2
    sleep "$poll"
    waited=$((waited + poll))
  done
}
