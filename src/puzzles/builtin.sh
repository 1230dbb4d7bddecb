#!/bin/sh
# The built-in puzzle set, src/puzzles/builtin.jsonl, made from nothing: Waggle's self-play games in each of the
# eight game types (two rounds of seeds: 150 games each, then 75 more each) and the repository's game records,
# mined for puzzles within 7 plies, at most two a game. docs/puzzles.md ("The built-in set") gives the time it took.
#
# Usage, from the repository's root: sh src/puzzles/builtin.sh [WORK]
# It builds the release binary, keeps its games and mining files in WORK (target/puzzles unless given) and writes
# src/puzzles/builtin.jsonl. Run again after Ctrl-C, it goes on: the games files made are kept, and an interrupted
# mining run is resumed.
set -eu
# The same order of sorted games and of the records' names in every locale.
export LC_ALL=C
root=$(pwd)
work=${1:-target/puzzles}
cargo build --release --quiet
waggle="$root/target/release/waggle"
mkdir -p "$work"
cd "$work"

# Self-play games of each game type, seeds from the first argument on, as many of each as the second says; sorted,
# since the threads finish them in any order.
games() {
    seed=$1
    for type in Base Base+M Base+L Base+P Base+ML Base+MP Base+LP Base+MLP; do
        if [ ! -s "games-$seed.txt" ]; then
            "$waggle" selfplay --game-type "$type" --games "$2" --nodes 5000 --seed "$seed" --threads 2 \
                --out "games-$seed.tmp"
            sort "games-$seed.tmp" > "games-$seed.txt"
            rm "games-$seed.tmp"
        fi
        seed=$((seed + 1))
    done
}

# Mine the games named into OUT (the first argument), unless a finished run made it already.
mine() {
    out=$1
    shift
    if [ -f "$out.progress" ]; then
        "$waggle" puzzles "$@" --out "$out" --threads 2 --per-game 2 --resume
    elif [ ! -f "$out" ]; then
        "$waggle" puzzles "$@" --out "$out" --threads 2 --per-game 2
    fi
}

games 1 150
games 9 75
# The records by a name of their own, so that the puzzles' sources name them the same wherever this runs.
ln -sfn "$root/tests/data/records" records
mine first.jsonl games-8.txt games-7.txt games-6.txt games-5.txt games-4.txt games-3.txt games-2.txt \
    games-1.txt records/*.pgn records/*.sgf
mine second.jsonl games-9.txt games-10.txt games-11.txt games-12.txt games-13.txt games-14.txt games-15.txt \
    games-16.txt
"$waggle" puzzles first.jsonl second.jsonl --join --out "$root/src/puzzles/builtin.jsonl"
