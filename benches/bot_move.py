#!/usr/bin/env python3
"""How soon a fresh process gives a bot bridge its move: each run starts ENGINE, writes what hivegame.com's bot
bridge writes (`newgame` with the `selfplay40` position, `bestmove depth 3`, end of input), and times from the start
to the line after `bestmove`'s (the move) and to the process's end. The engines take turns, RUNS fresh processes
each; printed are the medians, least and most.

    python3 benches/bot_move.py NEW OLD 30

Usage: python3 benches/bot_move.py ENGINE [ENGINE ...] RUNS
"""
import os
import statistics
import subprocess
import sys
import time

if len(sys.argv) < 3:
    sys.exit(__doc__)
ENGINES, RUNS = sys.argv[1:-1], int(sys.argv[-1])
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
POSITION = os.path.join(ROOT, "tests", "data", "positions", "selfplay40.txt")
INPUT = "newgame %s\nbestmove depth 3\n" % open(POSITION).read().strip()


def run(engine):
    """Milliseconds to the move's line and to the end of the process, and the move."""
    start = time.monotonic()
    process = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    process.stdin.write(INPUT)
    process.stdin.flush()
    # The replies to the start's `info`, to `newgame` and to `bestmove` each end with `ok`: the move is the line
    # after the second.
    oks, move = 0, None
    for line in process.stdout:
        if line.strip() == "ok":
            oks += 1
        elif oks == 2:
            move = line.strip()
            break
    moved = time.monotonic()
    process.stdin.close()
    process.stdout.read()
    process.wait()
    ended = time.monotonic()
    if move is None:
        sys.exit("%s gave no move" % engine)
    return (moved - start) * 1000, (ended - start) * 1000, move


times = {engine: ([], []) for engine in ENGINES}
moves = {}
for _ in range(RUNS):
    for engine in ENGINES:
        to_move, to_end, moves[engine] = run(engine)
        times[engine][0].append(to_move)
        times[engine][1].append(to_end)
for engine in ENGINES:
    to_move, to_end = times[engine]
    print("%s: the move (%s) after %.1f ms (least %.1f, most %.1f); the end after %.1f ms (least %.1f, most %.1f)" % (
        engine, moves[engine], statistics.median(to_move), min(to_move), max(to_move),
        statistics.median(to_end), min(to_end), max(to_end)))
