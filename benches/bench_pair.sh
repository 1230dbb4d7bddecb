#!/usr/bin/env bash
# The search's time on the bench positions, one build against another: `NEW bench` and `OLD bench` run in turn RUNS
# times, and each pair's ratio of the bench's own search time ("nodes in X s": the searches only, not the process's
# start or the fresh tables' set-up) is taken, so that a shared machine's drift hits both alike. Prints each build's
# median time and the median, least and greatest ratio NEW/OLD. For docs/speed.md.
# Usage: benches/bench_pair.sh NEW OLD [RUNS]   (RUNS defaults to 10)
set -euo pipefail
new=$1
old=$2
runs=${3:-10}
search_time() {
    "$1" bench 2>&1 | sed -n 's/.*nodes in \([0-9.]*\) s.*/\1/p'
}
for _ in $(seq "$runs"); do
    echo "$(search_time "$new") $(search_time "$old")"
done | python3 -c '
import statistics, sys
pairs = [tuple(map(float, line.split())) for line in sys.stdin if line.strip()]
ratios = sorted(a / b for a, b in pairs)
print("new %.3f s, old %.3f s (medians); new/old median %.3f (%.3f to %.3f), %d pairs" % (
    statistics.median(a for a, _ in pairs), statistics.median(b for _, b in pairs),
    statistics.median(ratios), ratios[0], ratios[-1], len(pairs)))'
