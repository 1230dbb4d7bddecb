#!/usr/bin/env python3
"""Depth in a fixed time, as in a game: from each of the 42 middle games of benches/midgame_positions.txt, ENGINE
plays MOVES moves against itself with `bestmove time` of MS milliseconds each and THREADS search threads (the book
off, the table kept from move to move as in a match), and the script reports the mean depth each search completed,
read from the `Move;Depth;…` lines that ReportIntermediateBestMoves prints.

    python3 benches/depth_in_time.py target/release/waggle 200 1
    python3 benches/depth_in_time.py target/release/waggle 200 2

`benches/time_to_depth.py` times fixed depths from a fresh table; this measures what a timed game gets from the
threads, where the table holds the last move's search and the last depth is cut at the deadline.

Usage: python3 benches/depth_in_time.py ENGINE MS THREADS [MOVES]
"""
import statistics
import subprocess
import sys

import midgame

ENGINE, MS, THREADS, MOVES = midgame.arguments(__doc__, 4)
POSITIONS = midgame.positions()

helpers = midgame.helper_threads(THREADS)
engine = subprocess.Popen([ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(command):
    """Send one command; return the lines of its reply before `ok`."""
    engine.stdin.write(command + "\n")
    engine.stdin.flush()
    return read(command)


def read(command):
    """The lines of a reply before `ok`."""
    reply = []
    while True:
        line = engine.stdout.readline()
        if not line:
            sys.exit("the engine ended during: %s" % command)
        line = line.strip()
        if line == "ok":
            return reply
        if line.startswith(("err", "invalidmove")):
            sys.exit("the engine refused %r: %s" % (command, line))
        reply.append(line)


read("the greeting")
send("options set OpeningBook False")
send("options set ReportIntermediateBestMoves True")
send("options set MaxHelperThreads %s" % helpers)
depths = []
time = "00:00:%06.3f" % (MS / 1000)
try:
    for game in POSITIONS:
        send("newgame " + game)
        for _ in range(MOVES):
            reply = send("bestmove time " + time)
            searched = [line.split(";") for line in reply if ";" in line]
            if not searched:
                break  # a single legal move, or the game is over
            depths.append(int(searched[-1][1]))
            board = send("play " + reply[-1])
            if board and board[-1].split(";")[1] != "InProgress":
                break
    engine.stdin.close()
    engine.wait()
except KeyboardInterrupt:
    engine.kill()
    print("stopped (Ctrl-C) after %d searches" % len(depths))
    if not depths:
        sys.exit(1)
print("%d searches of %d ms, %d thread(s): mean depth %.3f (median %d, least %d, most %d)"
      % (len(depths), MS, THREADS, statistics.mean(depths), statistics.median(depths), min(depths), max(depths)))
