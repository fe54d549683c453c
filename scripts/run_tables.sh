#!/bin/sh
# The runs behind docs/analysis.md ("The tables"): each deal range solved by
# `spillebord analyse solve` (a local Ray cluster, 2 CPUs, CPU-time limit per deal),
# then the deals left unknown re-solved at a longer limit (scripts/rerun_unknown.py).
# Results go to $OUT (Parquet, not in git); scripts/analysis_charts.py draws the charts.
#   RAY_worker_niceness=0 nice -n 10 sh scripts/run_tables.sh [OUT]
# (Ray starts its workers 15 nicer than the raylet, which with nice -n 10 is the
# lowest priority, 19; RAY_worker_niceness=0 keeps them at nice 10.)
set -eu
OUT=${1:-analysis-results}
mkdir -p "$OUT"
spillebord analyse solve posthus --deals 1-20000 --seconds 2 \
    --out "$OUT/posthus-strict.parquet" --quiet
spillebord analyse solve posthus --deals 1-100000 --seconds 2 --flag open_gaps \
    --out "$OUT/posthus-open_gaps.parquet" --quiet
spillebord analyse solve studenter --deals 1-20000 --seconds 2 \
    --out "$OUT/studenter.parquet" --quiet
python scripts/rerun_unknown.py "$OUT/posthus-strict.parquet" posthus --from 2 --to 5
python scripts/rerun_unknown.py "$OUT/studenter.parquet" studenter --from 2 --to 10
