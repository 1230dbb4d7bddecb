#!/usr/bin/env python3
"""Time to depth over many middle games: how long ENGINE takes to search every position of
benches/midgame_positions.txt (42 positions, 6 each of Base+MP, Base+LP, Base+M, Base+L, Base+P, Base and Base+ML,
taken at plies 24 to 40 of Waggle's self-play games) to DEPTH, with THREADS search threads, the book off and a
fresh table for each position (after one short warm-up search that takes the table's first page faults). Each run
prints the wall time of the whole session, start-up included; give ROUNDS for several runs (their median last).

    python3 benches/time_to_depth.py target/release/waggle 7 1 3
    python3 benches/time_to_depth.py target/release/waggle 7 2 3

`waggle bench D --threads T` times the bench's fifteen positions, which one position dominates; these 42 spread
the chance that one search happens to change its mind at some depth, which makes two-thread times vary.

Usage: python3 benches/time_to_depth.py ENGINE DEPTH THREADS [ROUNDS]
"""
import statistics
import subprocess
import sys
import time

import midgame

ENGINE, DEPTH, THREADS, ROUNDS = midgame.arguments(__doc__, 1)
POSITIONS = midgame.positions()

helpers = midgame.helper_threads(THREADS)
lines = ["options set OpeningBook False", "options set MaxHelperThreads %s" % helpers]
lines += ["newgame Base+MLP", "bestmove depth 6"]
for game in POSITIONS:
    lines += ["newgame " + game, "bestmove depth %d" % DEPTH]
session = "\n".join(lines) + "\n"

times = []
try:
    for _ in range(ROUNDS):
        start = time.monotonic()
        out = subprocess.run([ENGINE], input=session, capture_output=True, text=True, check=True).stdout
        times.append(time.monotonic() - start)
        errors = [line for line in out.splitlines() if line.startswith(("err", "invalidmove"))]
        if errors:
            sys.exit("the engine refused a line: %s" % errors[0])
        print("%d positions to depth %d, %d thread(s): %.3f s" % (len(POSITIONS), DEPTH, THREADS, times[-1]))
except KeyboardInterrupt:
    print("stopped (Ctrl-C) after %d of %d rounds" % (len(times), ROUNDS))
if len(times) > 1:
    print("median of %d: %.3f s" % (len(times), statistics.median(times)))
