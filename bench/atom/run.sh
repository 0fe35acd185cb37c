#!/usr/bin/env bash
# Atom reader throughput beside libxml2's own parse-only pass, on the same ~300 MB feed of events.
# Usage: bench/atom/run.sh [MB]   (needs python3 and xmllint from libxml2-utils)
set -euo pipefail
cd "$(dirname "$0")/../.."
megabytes=${1:-300}
feed=${TMPDIR:-/tmp}/speakeasy-atom-bench-$megabytes.xml
[[ -f $feed ]] || python3 bench/atom/make-feed.py "$feed" "$megabytes"
bytes=$(stat -c %s "$feed")
for run in 1 2 3; do
    start=$(date +%s.%N)
    xmllint --stream --noout "$feed"
    end=$(date +%s.%N)
    awk -v b="$bytes" -v s="$start" -v e="$end" 'BEGIN { printf "xmllint --stream --noout: %.2f s = %.0f MB/s\n", e - s, b / 1e6 / (e - s) }'
done
ATOM_BENCH_FEED=$feed swift test -c release --scratch-path .build-bench --filter AtomReaderThroughput 2>&1 | grep 'atom-reader:'
