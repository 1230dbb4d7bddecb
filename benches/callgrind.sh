#!/usr/bin/env bash
# Instructions per leaf under callgrind, for the speed table of docs/speed.md: the instructions of `waggle perft` to
# depth d minus those to depth d-1 (each run counts every depth up to its own), divided by perft(d), the count of
# tests/data/perft.tsv.
# Usage: benches/callgrind.sh   (builds the release binary first; needs valgrind)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=./target/release/waggle
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" perft --depth "$2" "$1" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
row() { # name position depth: the position a GameTypeString or a file of tests/data/positions
  local game=$2 a b leaves
  if [ -f "tests/data/positions/$2.txt" ]; then game=$(cat "tests/data/positions/$2.txt"); fi
  leaves=$(awk -F'\t' -v p="$2" -v d="$3" '$1 == p && $2 == d { print $3 }' tests/data/perft.tsv)
  [ -n "$leaves" ] || { echo "no perft($3) of $2 in tests/data/perft.tsv" >&2; exit 1; }
  a=$(instructions "$game" "$3")
  b=$(instructions "$game" "$(($3 - 1))")
  awk -v n="$1" -v d="$3" -v a="$a" -v b="$b" -v l="$leaves" 'BEGIN { printf "%-16s d%d %8.1f instructions/leaf\n", n, d, (a - b) / l }'
}
row "Base start" Base 5
row "Base+MLP start" Base+MLP 5
row selfplay40 selfplay40 3
row long2 long2 3
