#!/usr/bin/env python3
"""An engine given node odds: passes every UHP line on to ENGINE, but multiplies the N of `bestmove nodes N` by
FACTOR. Against the plain engine in a node-limited match it measures what a faster search is worth (what more
threads could at best gain), on any machine and under any load:

    target/release/waggle match --nodes 100000 --games 300 --concurrency 2 --max-plies 250 --seed 3 \\
        --name 2x --name 1x "python3 benches/node_odds.py 2 target/release/waggle" target/release/waggle

Usage: python3 benches/node_odds.py FACTOR ENGINE [ENGINE FLAGS...]
"""
import re
import subprocess
import sys

if len(sys.argv) < 3:
    sys.exit(__doc__)
FACTOR = float(sys.argv[1])
engine = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, text=True, bufsize=1)
for line in sys.stdin:
    nodes = re.fullmatch(r"bestmove nodes (\d+)\s*", line)
    if nodes:
        line = "bestmove nodes %d\n" % max(1, round(int(nodes.group(1)) * FACTOR))
    engine.stdin.write(line)
    engine.stdin.flush()
engine.stdin.close()
engine.wait()
