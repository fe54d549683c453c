#!/usr/bin/env bash
# Time the test tiers (issue 30; docs/testing.md, docs/benchmarks.md): wall clock and CPU
# seconds of each step, with the load average before and after it.
#
#   scripts/time_tiers.sh [ROUNDS]          the steps of `make check` and `make test`
#                                           in this checkout (installed), ROUNDS times
#   scripts/time_tiers.sh --each [ROUNDS]   also every pytest tier alone (-n JOBS)
#   scripts/time_tiers.sh --fresh [ROUNDS]  `.ci/run` (= `make test`) in a fresh clone
#                                           of HEAD, then `make check` there, ROUNDS times
#
# CPU is user + sys of the step and of every child process it waited for (servers,
# browsers, compute workers); PostgreSQL runs detached (pg_ctl), so its few seconds are
# not in it.  Run it on a quiet machine: the load average is printed with each figure.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=here
case "${1:-}" in
  --each) mode=each; shift ;;
  --fresh) mode=fresh; shift ;;
esac
rounds=${1:-1}
JOBS=${JOBS:-3}
FAST="not slow and not browser and not services and not server and not research"

load() { cut -d' ' -f1-3 /proc/loadavg; }

# step NAME COMMAND...: run it, print "NAME  wall  cpu  load before -> after".
step() {
  local name=$1 out before
  shift
  out=$(mktemp)
  before=$(load)
  if ! /usr/bin/time -f '%e %U %S' -o "$out" "$@" >"$out.log" 2>&1; then
    echo "FAILED: $name (log: $out.log)"; tail -20 "$out.log"; exit 1
  fi
  read -r wall user sys < <(tail -1 "$out")
  printf '%-36s wall %7.1f s   CPU %7.1f s (user %.1f + sys %.1f)   load %s -> %s\n' \
    "$name" "$wall" "$(awk "BEGIN {print $user + $sys}")" "$user" "$sys" "$before" "$(load)"
  rm -f "$out" "$out.log"
}

echo "machine: $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC'); commit $(git rev-parse --short HEAD)"
for round in $(seq "$rounds"); do
  echo "-- round $round"
  if [ "$mode" = fresh ]; then
    dir=$(mktemp -d /tmp/spillebord-fresh-XXXX)
    git clone -q . "$dir"
    (cd "$dir" && step ".ci/run (make test, fresh clone)" bash .ci/run)
    (cd "$dir" && step "make check (same clone)" make check)
    rm -rf "$dir"
    continue
  fi
  step "ruff" .venv/bin/ruff check src tests bench scripts
  step "mypy (cache as it is)" .venv/bin/mypy
  step "jscheck" make --no-print-directory jscheck
  step "fast tier (-n 2)" .venv/bin/pytest -q -p no:cacheprovider -m "$FAST" -n 2
  if [ "$mode" = each ]; then
    for tier in server browser services research; do
      step "$tier tier alone (-n $JOBS)" .venv/bin/pytest -q -p no:cacheprovider -m "$tier" \
        -n "$JOBS" --dist loadfile --no-loadscope-reorder
    done
  fi
  step "every tier, make pytest (-n $JOBS)" env JOBS="$JOBS" bash scripts/pytest_tiers.sh \
    -p no:cacheprovider
done
