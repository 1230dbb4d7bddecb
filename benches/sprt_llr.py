#!/usr/bin/env python3
"""Pentanomial GSPRT LLR (as src/arena/stats/sprt.rs computes it) over the pooled pair counts of several runs.
usage: python3 benches/sprt_llr.py ELO0 ELO1 "p0 p1 p2 p3 p4" ["p0 ..."]..."""
import math, sys
elo0, elo1 = float(sys.argv[1]), float(sys.argv[2])
counts = [0]*5
for run in sys.argv[3:]:
    for i, c in enumerate(run.replace('-', ' ').split()):
        counts[i] += int(c)
n = sum(counts)
reg = [c if c > 0 else 1e-3 for c in counts]
tot = sum(reg)
p = [c / tot for c in reg]
a = [0, .25, .5, .75, 1]
ratio = lambda elo: 1 / (1 + 10 ** (-elo / 400))
def lam(s):
    f = lambda l: sum(pi * (ai - s) / (1 + l * (ai - s)) for pi, ai in zip(p, a))
    lo, hi = -1 / (1 - s) + 1e-12, 1 / s - 1e-12  # 1 + l (a - s) > 0 for a in [0, 1]
    for _ in range(200):
        mid = (lo + hi) / 2
        if f(mid) > 0: lo = mid
        else: hi = mid
    return (lo + hi) / 2
s0, s1 = ratio(elo0), ratio(elo1)
l0, l1 = lam(s0), lam(s1)
llr = n * sum(pi * math.log((1 + l0 * (ai - s0)) / (1 + l1 * (ai - s1))) for pi, ai in zip(p, a))
score = sum(c * ai for c, ai in zip(counts, a)) / n
print(f"pairs {counts} ({n}), score {score:.4f}, llr {llr:.3f}")
