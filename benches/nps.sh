#!/usr/bin/env bash
# Nodes per second in the search, Waggle against another UHP engine that reports its own (nokamute), on positions of
# the bench at a fixed time a move, one thread each, for the table of docs/speed.md. Each engine says how many nodes
# it searched and how fast: Waggle in its ReportIntermediateBestMoves lines (the last completed depth: nodes= and
# nps=), nokamute with --verbose on stderr ("N nodes/sec", every node of the search, the unfinished depth included).
# Each position is searched RUNS times by each engine in turn (Waggle, nokamute, Waggle, ...), so that both see the
# same load on a shared machine, and the median of each engine's runs is printed.
# Usage: benches/nps.sh [WAGGLE [NOKAMUTE [SECONDS [RUNS]]]]
#   defaults: target/release/waggle, ../nokamute/target/release/nokamute, 1 (whole seconds: `bestmove time`), 5
set -euo pipefail
cd "$(dirname "$0")/.."
waggle=${1:-target/release/waggle}
nokamute=${2:-../nokamute/target/release/nokamute}
seconds=${3:-1}
runs=${4:-5}
time=$(printf '00:00:%02d' "$seconds")
printf '%-14s %12s %12s %12s %12s\n' position waggle-nodes waggle-nps nokamute-nodes nokamute-nps  # medians
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for name in selfplay40 ant_midgame beetle_gate mosquito ladybug_gate long2; do
  game=$(cat "tests/data/positions/$name.txt")
  wn=() wr=() kn=() kr=()
  for _ in $(seq "$runs"); do
    # Waggle reads stdin while it thinks (for `stop`), so `exit` waits until the search is over.
    w=$( (printf 'options set ReportIntermediateBestMoves True\nnewgame %s\nbestmove time %s\n' "$game" "$time"
          sleep "$((seconds + 1))"; echo exit) | "$waggle" | grep 'nodes=' | tail -1)
    wn+=("$(sed -n 's/.*;nodes=\([0-9]*\);.*/\1/p' <<<"$w")")
    wr+=("$(sed -n 's/.*;nps=\([0-9]*\);.*/\1/p' <<<"$w")")
    k=$(printf 'newgame %s\nbestmove time %s\nexit\n' "$game" "$time" |
        "$nokamute" --num-threads=1 --verbose uhp 2>&1 >/dev/null)
    full=$(sed -n 's/^Explored \([0-9]*\) nodes.*/\1/p' <<<"$k" | tail -1)
    partial=$(sed -n 's/^Partial exploration of next depth hit \([0-9]*\) nodes.*/\1/p' <<<"$k" | tail -1)
    kn+=("$((full + partial))")
    kr+=("$(sed -n 's/^\([0-9]*\) nodes\/sec/\1/p' <<<"$k" | tail -1)")
  done
  printf '%-14s %12s %12s %12s %12s\n' "$name" \
    "$(printf '%s\n' "${wn[@]}" | median)" "$(printf '%s\n' "${wr[@]}" | median)" \
    "$(printf '%s\n' "${kn[@]}" | median)" "$(printf '%s\n' "${kr[@]}" | median)"
done
