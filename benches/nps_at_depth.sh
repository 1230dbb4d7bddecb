#!/usr/bin/env bash
# Nodes per second at fixed depths, Waggle against another UHP engine that reports its own (nokamute), one thread
# each: each engine searches each position to a fixed depth (Waggle's a few plies deeper, its search pruning more),
# so that both figures count every node of completed depths and nothing of an unfinished one. benches/nps.sh searches
# for a fixed time instead, where Waggle's figure is that of its last completed depth and nokamute's that of every
# node, the unfinished depth included. Each position is searched RUNS times by each engine in turn; printed are the
# medians of each engine's rate and of the runs' ratios (Waggle's rate over nokamute's).
# Usage: benches/nps_at_depth.sh [WAGGLE [NOKAMUTE [RUNS [POSITION:WAGGLE_DEPTH:OTHER_DEPTH ...]]]]
#   defaults: target/release/waggle, ../nokamute/target/release/nokamute, 5, the six positions of benches/nps.sh at
#   depths of some hundreds of thousands of nodes each.
set -euo pipefail
cd "$(dirname "$0")/.."
waggle=${1:-target/release/waggle}
other=${2:-../nokamute/target/release/nokamute}
runs=${3:-5}
shift $(($# < 3 ? $# : 3))
specs=${*:-selfplay40:7:5 ant_midgame:9:6 beetle_gate:8:6 mosquito:9:6 ladybug_gate:10:6 long2:8:5}
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
printf '%-14s %7s %12s %12s %7s %12s %12s %7s\n' position w-depth waggle-nodes waggle-nps o-depth other-nodes \
  other-nps ratio
for spec in $specs; do
  IFS=: read -r name wdepth odepth <<<"$spec"
  game=$(cat "tests/data/positions/$name.txt")
  wn='' wr=() on='' orate=() ratios=()
  for _ in $(seq "$runs"); do
    w=$(printf 'options set ReportIntermediateBestMoves True\nnewgame %s\nbestmove depth %s\n' "$game" "$wdepth" |
        "$waggle" | grep 'nodes=' | tail -1)
    wn=$(sed -n 's/.*;nodes=\([0-9]*\);.*/\1/p' <<<"$w")
    rate=$(sed -n 's/.*;nps=\([0-9]*\);.*/\1/p' <<<"$w")
    o=$(printf 'newgame %s\nbestmove depth %s\n' "$game" "$odepth" |
        "$other" --num-threads=1 --verbose uhp 2>&1 >/dev/null)
    on=$(sed -n 's/^Explored \([0-9]*\) nodes.*/\1/p' <<<"$o" | tail -1)
    other_rate=$(sed -n 's/^\([0-9]*\) nodes\/sec/\1/p' <<<"$o" | tail -1)
    wr+=("$rate") orate+=("$other_rate")
    ratios+=("$(awk -v a="$rate" -v b="$other_rate" 'BEGIN { printf "%.3f", a / b }')")
  done
  printf '%-14s %7s %12s %12s %7s %12s %12s %7s\n' "$name" "$wdepth" "$wn" \
    "$(printf '%s\n' "${wr[@]}" | median)" "$odepth" "$on" "$(printf '%s\n' "${orate[@]}" | median)" \
    "$(printf '%s\n' "${ratios[@]}" | median)"
done
