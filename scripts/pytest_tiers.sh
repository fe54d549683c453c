#!/usr/bin/env bash
# `make pytest` (issue 30; docs/testing.md): every test tier in two pytest runs at once.
#
#   - the services tier (tests/scale: real PostgreSQL, Redis, nginx and worker processes)
#     in a pytest of its own, one test at a time: it mostly waits (worker starts, leases
#     running out, fail-overs), so it costs little CPU beside the rest;
#   - every other tier in one pytest-xdist run (-n JOBS, --dist loadfile: a file's tests
#     stay on one worker, so its module server starts once; --no-loadscope-reorder starts
#     the files in tests/conftest.py's order, longest chains first).
#
# The services run's output is printed when both have ended; the status is the worse of
# the two.  SERVICES=after runs the services tier after the rest instead (as before issue
# 30's session 10), e.g. to time a fail-over on an otherwise idle machine.
# Interrupted (Ctrl-C, or SIGTERM to this script), the services run is interrupted too
# (SIGINT: pytest tears its fixtures down, so what they started stops).
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.venv/bin}
JOBS=${JOBS:-3}
SERVICES=${SERVICES:-beside}
REST=(-m "not services" -n "$JOBS" --dist loadfile --no-loadscope-reorder)

if [ "$SERVICES" = after ]; then
  "$BIN/pytest" "${REST[@]}" "$@"; rest=$?
  "$BIN/pytest" -m services "$@"; services=$?
  exit $((rest > services ? rest : services))
fi

log=$(mktemp "${TMPDIR:-/tmp}/spillebord-services-XXXXXX")
# Both runs are background jobs, so that a trap runs at once (bash runs it only after a
# foreground job has ended).  A background job of a script starts with SIGINT ignored,
# and Python then never turns Ctrl-C into KeyboardInterrupt: put the handler back before
# pytest starts.  The services run's cache is off: two runs writing .pytest_cache at once
# would race.
pytest_bg() {  # exec: the job's pid is pytest's own, so a signal reaches it
  exec "$BIN/python" -c 'import signal, sys, pytest
signal.signal(signal.SIGINT, signal.default_int_handler)
sys.exit(pytest.main(sys.argv[1:]))' "$@"
}
pytest_bg -m services -p no:cacheprovider "$@" >"$log" 2>&1 &
svc=$!
pytest_bg "${REST[@]}" "$@" &
others=$!
stopped() {  # $1: send both runs SIGINT too (Ctrl-C in a terminal reaches them itself)
  [ "$1" = send ] && kill -INT "$svc" "$others" 2>/dev/null
  wait "$others" 2>/dev/null
  wait "$svc" 2>/dev/null
  echo "---- the services tier (interrupted):"
  tail -40 "$log"
  rm -f "$log"
  exit 130
}
trap 'stopped wait' INT
trap 'stopped send' TERM

wait "$others"
rest=$?
wait "$svc"
services=$?
trap - INT TERM
echo "---- the services tier (tests/scale), run beside the others:"
cat "$log"
rm -f "$log"
exit $((rest > services ? rest : services))
