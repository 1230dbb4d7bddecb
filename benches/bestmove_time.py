#!/usr/bin/env python3
"""How long `bestmove time` takes through the real binary, from sending the command to reading `ok`.

Usage: cargo build --release && python3 benches/bestmove_time.py
Prints, per position and limit, the mean and the worst (largest) overshoot of the limit over five searches;
negative numbers mean the answer came early.
"""
import os
import subprocess
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ENGINE = os.path.join(ROOT, "target", "release", "waggle")
SELFPLAY40 = open(os.path.join(ROOT, "tests", "data", "positions", "selfplay40.txt")).read().strip()

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


reply()
for name, game in [("Base+MLP start", "Base+MLP"), ("selfplay40", SELFPLAY40)]:
    ask("newgame " + game)
    for text, seconds in [("00:00:00.2000000", 0.2), ("00:00:01", 1.0)]:
        overs = []
        for _ in range(5):
            start = time.monotonic()
            ask("bestmove time " + text)
            overs.append(time.monotonic() - start - seconds)
        print(f"{name:<16} limit {seconds:.1f} s: mean {1000 * sum(overs) / len(overs):+.1f} ms, "
              f"worst {1000 * max(overs):+.1f} ms")
engine.stdin.close()
engine.wait()
