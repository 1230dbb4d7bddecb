#!/usr/bin/env bash
# Instructions a node, Waggle against another UHP engine that reports its nodes (nokamute), under callgrind, which
# counts the same for the same binary and input whatever else the machine is doing: each engine searches each
# position to a fixed depth and to depth 1, and the figure is (I(D) - I(1)) / (N(D) - N(1)), so that start-up and
# the first depth's set-up cancel out. Waggle's nodes are those of its last search line (--verbose), nokamute's
# those its --verbose output says it explored.
# Usage: benches/node_cost.sh [WAGGLE [NOKAMUTE [POSITION:WAGGLE_DEPTH:OTHER_DEPTH ...]]]
#   defaults: target/release/waggle, ../nokamute/target/release/nokamute, the six positions of benches/nps.sh at
#   depths giving each engine some tens of thousands of nodes.
set -euo pipefail
cd "$(dirname "$0")/.."
waggle=${1:-target/release/waggle}
other=${2:-../nokamute/target/release/nokamute}
shift $(($# < 2 ? $# : 2))
specs=${*:-selfplay40:5:4 ant_midgame:6:4 beetle_gate:5:4 mosquito:6:5 ladybug_gate:6:5 long2:5:4}
instructions() { grep 'I   refs' | tr -d , | awk '{ print $NF }'; }
under_callgrind() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1; }
printf '%-14s %12s %12s %12s %12s %8s\n' position waggle-nodes waggle-i/node other-nodes other-i/node ratio
for spec in $specs; do
  IFS=: read -r name wdepth odepth <<<"$spec"
  game=$(cat "tests/data/positions/$name.txt")
  w1=$(printf '%s\n' "newgame $game" "bestmove depth 1" | under_callgrind "$waggle" --verbose)
  wd=$(printf '%s\n' "newgame $game" "bestmove depth $wdepth" | under_callgrind "$waggle" --verbose)
  o1=$(printf '%s\n' "newgame $game" "bestmove depth 1" | under_callgrind "$other" --num-threads=1 --verbose uhp)
  od=$(printf '%s\n' "newgame $game" "bestmove depth $odepth" | under_callgrind "$other" --num-threads=1 --verbose uhp)
  wn() { grep -o 'nodes=[0-9]*' | tail -1 | cut -d= -f2; }
  on() { sed -n 's/^Explored \([0-9]*\) nodes.*/\1/p' | tail -1; }
  python3 - "$name" "$(instructions <<<"$wd")" "$(instructions <<<"$w1")" "$(wn <<<"$wd")" "$(wn <<<"$w1")" \
    "$(instructions <<<"$od")" "$(instructions <<<"$o1")" "$(on <<<"$od")" "$(on <<<"$o1")" <<'EOF'
import sys
name, wi, wi1, wn, wn1, oi, oi1, on, on1 = sys.argv[1], *map(int, sys.argv[2:])
w, o = (wi - wi1) / (wn - wn1), (oi - oi1) / (on - on1)
print("%-14s %12d %12.0f %12d %12.0f %8.2f" % (name, wn, w, on, o, o / w))
EOF
done
