#!/usr/bin/env python3
"""How soon a fresh process gives a bot bridge its move: each run starts ENGINE, writes what hivegame.com's bot
bridge writes (`newgame` with a position of tests/data/positions, `selfplay40` unless --position names another,
`bestmove depth 3` or --depth's, end of input), and times from the start to the line after `bestmove`'s (the move)
and to the process's end. The engines take turns, RUNS fresh processes each; printed are the medians, least and
most.

    python3 benches/bot_move.py NEW OLD 30
    python3 benches/bot_move.py --depth 7 --position beetle_gate NEW OLD 10

Usage: python3 benches/bot_move.py [--depth D] [--position NAME] ENGINE [ENGINE ...] RUNS
"""
import os
import statistics
import subprocess
import sys
import time

ARGS = sys.argv[1:]
DEPTH, NAME = "3", "selfplay40"
while len(ARGS) >= 2 and ARGS[0] in ("--depth", "--position"):
    if ARGS[0] == "--depth":
        DEPTH = ARGS[1]
    else:
        NAME = ARGS[1]
    ARGS = ARGS[2:]
if len(ARGS) < 2 or not ARGS[-1].isdigit() or not DEPTH.isdigit():
    sys.exit(__doc__)
ENGINES, RUNS = ARGS[:-1], int(ARGS[-1])
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
POSITION = os.path.join(ROOT, "tests", "data", "positions", NAME + ".txt")
INPUT = "newgame %s\nbestmove depth %s\n" % (open(POSITION).read().strip(), DEPTH)


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
