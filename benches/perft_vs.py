#!/usr/bin/env python3
"""Perft against nokamute, the whole process: the rows of docs/speed.md's perft table.

Each engine counts from the row's position to the row's depth in a fresh process, one thread: Waggle with
`waggle perft --depth D GAME` (bulk counts, every depth up to D printed), nokamute with `nokamute perft GAME`, which
prints one line a depth and goes on until it is stopped: its time is from its start to the line of depth D, then
it is killed. Both counts are compared. The engines take turns, RUNS times a row, and the best (least) wall time of
each is kept, as is usual for a count that only noise can slow down.

Usage: benches/perft_vs.py [WAGGLE [NOKAMUTE [RUNS]]]
  defaults: target/release/waggle, ../nokamute/target/release/nokamute, 3
"""

import os
import re
import subprocess
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ROWS = [("Base", 7), ("Base+MLP", 6), ("selfplay40", 4), ("long2", 4), ("mosquito", 5)]


def game_of(name):
    path = os.path.join(ROOT, "tests", "data", "positions", name + ".txt")
    if os.path.exists(path):
        with open(path) as f:
            return f.read().strip()
    return name


def waggle(binary, game, depth):
    start = time.monotonic()
    out = subprocess.run([binary, "perft", "--depth", str(depth), game], capture_output=True, text=True, check=True)
    elapsed = time.monotonic() - start
    counts = re.findall(r"perft\((\d+)\) = (\d+)", out.stdout)
    return elapsed, int(dict(counts)[str(depth)])


def nokamute(binary, game, depth):
    start = time.monotonic()
    proc = subprocess.Popen([binary, "perft", game], stdout=subprocess.PIPE, text=True)
    try:
        for line in proc.stdout:
            fields = line.split()
            if len(fields) >= 2 and fields[0] == str(depth) and fields[1].isdigit():
                return time.monotonic() - start, int(fields[1])
    finally:
        proc.kill()
        proc.wait()
    raise RuntimeError("nokamute stopped before depth %d" % depth)


def main():
    w_bin = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "waggle")
    n_bin = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "..", "nokamute", "target", "release", "nokamute")
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    print("%-12s %5s %14s %10s %10s %7s" % ("position", "depth", "count", "waggle s", "nokamute s", "ratio"))
    for name, depth in ROWS:
        game = game_of(name)
        best_w = best_n = float("inf")
        for _ in range(runs):
            t, count_w = waggle(w_bin, game, depth)
            best_w = min(best_w, t)
            t, count_n = nokamute(n_bin, game, depth)
            best_n = min(best_n, t)
            if count_w != count_n:
                raise RuntimeError("%s d%d: Waggle counts %d, nokamute %d" % (name, depth, count_w, count_n))
        print("%-12s %5d %14d %10.3f %10.3f %7.2f" % (name, depth, count_w, best_w, best_n, best_n / best_w))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
