#!/usr/bin/env bash
# How long `newgame` takes after a search has used a big table (the table is cleared for the new game): the
# milliseconds from the `ok` of a five-second search on a 4096 MB table to the reply of the next `newgame`.
# Usage: benches/newgame_time.sh [BINARY] [RUNS]   (default: target/release/waggle, 3 runs; needs 4 GB free)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-./target/release/waggle}
for _ in $(seq "${2:-3}"); do
  printf 'options set MaxHashSize 4096\noptions set OpeningBook False\nnewgame Base+MLP\nbestmove time 00:00:05\nnewgame Base+MLP\n' |
    "$bin" | while IFS= read -r line; do printf '%s %s\n' "$(date +%s%3N)" "$line"; done |
    awk '/^[0-9]+ ok$/ { ok = $1 } /NotStarted/ && ++games == 2 { print $1 - ok " ms" }'
done
