#!/usr/bin/env bash
# Instructions per leaf under callgrind, for the speed table of perft.md: the instructions of `waggle perft` to
# depth d minus those to depth d-1 (each run counts every depth up to its own), divided by perft(d).
# Usage: benches/callgrind.sh   (builds the release binary first; needs valgrind)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=./target/release/waggle
positions=tests/data/positions
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" perft --depth "$2" "$1" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
row() { # name game depth leaves
  local a b
  a=$(instructions "$2" "$3")
  b=$(instructions "$2" "$(($3 - 1))")
  awk -v n="$1" -v d="$3" -v a="$a" -v b="$b" -v l="$4" 'BEGIN { printf "%-16s d%d %8.1f instructions/leaf\n", n, d, (a - b) / l }'
}
row "Base start" Base 5 516240
row "Base+MLP start" Base+MLP 5 5427108
row selfplay40 "$(cat $positions/selfplay40.txt)" 3 980821
row long2 "$(cat $positions/long2.txt)" 3 316896
