#!/usr/bin/env python3
"""How much of a fixed move time `bestmove time` uses, through the real binary: from sending the command to
reading `ok`, over seven test positions (none in the opening book, none with a forced move).

Usage: cargo build --release && python3 benches/bestmove_time.py [ENGINE] [MILLISECONDS,...]
(default: target/release/waggle, 20,50,100,200,1000,3000,10000). Prints, per limit, the mean, least and most time
taken, each also as a share of the limit; above 100 % is an overshoot. Up to 1 s, every position is searched
three times; longer limits search three positions once each.
"""
import os
import subprocess
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ENGINE = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "waggle")
LIMITS = [int(ms) for ms in (sys.argv[2] if len(sys.argv) > 2 else "20,50,100,200,1000,3000,10000").split(",")]
NAMES = ["ant_midgame", "beetle_gate", "ladybug_gate", "mosquito", "pillbug_stun", "selfplay40", "long2"]
POSITIONS = os.path.join(ROOT, "tests", "data", "positions")
GAMES = [open(os.path.join(POSITIONS, name + ".txt")).read().strip() for name in NAMES]

engine = subprocess.Popen([ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def ask(command):
    engine.stdin.write(command + "\n")
    engine.stdin.flush()
    return reply()


def reply():
    lines = []
    while True:
        line = engine.stdout.readline().rstrip("\n")
        if line == "ok":
            return lines
        lines.append(line)


def share(ms, limit):
    return f"{ms:8.1f} ms ({100 * ms / limit:5.1f} %)"


reply()
for limit in LIMITS:
    taken = []
    short = limit <= 1000
    for game in GAMES if short else GAMES[:3]:
        ask("newgame " + game)
        for _ in range(3 if short else 1):
            text = "%02d:%02d:%02d.%03d" % (limit // 3_600_000, limit // 60_000 % 60, limit // 1000 % 60, limit % 1000)
            start = time.monotonic()
            ask("bestmove time " + text)
            taken.append(1000 * (time.monotonic() - start))
    mean = sum(taken) / len(taken)
    print(f"{limit:>6} ms, {len(taken):2} searches: mean {share(mean, limit)}, least {share(min(taken), limit)}, "
          f"most {share(max(taken), limit)}", flush=True)
engine.stdin.close()
engine.wait()
