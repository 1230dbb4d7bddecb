#!/usr/bin/env python3
"""Time to depth with two threads against one over the bench positions, measured so that a shared, noisy machine
spoils it as little as it can: ROUNDS rounds of `ENGINE bench DEPTH --threads 1` then `--threads 2`, one right
after the other, so that each round's ratio compares two runs made at nearly the same speed of the machine.
Prints the medians and quartiles of the times, of the rounds' ratios, and what two threads change apart from the
machine: how many more nodes they visit, and their node rate against one thread's.

    python3 benches/bench_threads.py target/release/waggle 7 30

With --two-only, runs only `--threads 2`, ROUNDS times, and prints each position's median nodes and the mean of
the totals: a two-thread search's node count depends on how the threads meet, not on the machine's speed, so it
compares two versions of the helpers (run them in turn) where their times would drown in the machine's noise.

Ctrl-C ends it early: it prints the same over the rounds finished so far.

Usage: python3 benches/bench_threads.py ENGINE DEPTH ROUNDS [--two-only]
"""
import statistics
import subprocess
import sys


def bench(engine, depth, threads):
    """One bench run: its total nodes, its wall time in seconds and each position's nodes."""
    out = subprocess.run([engine, "bench", str(depth), "--threads", str(threads)],
                         capture_output=True, text=True, check=True).stdout
    positions = {}
    for line in out.splitlines():
        fields = line.split()
        if line.startswith("bench depth"):
            # bench depth 7: 1201067 nodes in 2.382 s, 504312 nodes/s
            total, seconds = int(fields[3]), float(fields[6])
        elif len(fields) > 2 and fields[2] == "nodes":
            positions[fields[0]] = int(fields[1])
    return total, seconds, positions


def quartiles(values):
    if len(values) < 2:
        return "n/a"
    return " and ".join("%.3f" % q for q in statistics.quantiles(values, n=4)[::2])


def rounds_run(rounds, one_round):
    """Run `one_round` up to `rounds` times; Ctrl-C ends the runs early, and what was done so far still counts.
    Returns how many rounds finished."""
    done = 0
    try:
        for _ in range(rounds):
            one_round()
            done += 1
    except KeyboardInterrupt:
        print("stopped after %d of %d rounds" % (done, rounds))
    return done


def two_only(engine, depth, rounds):
    totals, per = [], {}

    def one_round():
        total, _, positions = bench(engine, depth, 2)
        totals.append(total)
        for name, nodes in positions.items():
            per.setdefault(name, []).append(nodes)

    rounds = rounds_run(rounds, one_round)
    if rounds == 0:
        return
    for name, nodes in per.items():
        print("%-14s median %9.0f  max %9d" % (name, statistics.median(nodes), max(nodes)))
    print("2 threads, %d runs: total nodes mean %.0f, median %.0f, least %d, most %d"
          % (rounds, statistics.mean(totals), statistics.median(totals), min(totals), max(totals)))


def interleaved(engine, depth, rounds):
    runs = {1: [], 2: []}

    def one_round():
        pair = [bench(engine, depth, threads)[:2] for threads in (1, 2)]
        runs[1].append(pair[0])
        runs[2].append(pair[1])

    rounds = rounds_run(rounds, one_round)
    if rounds == 0:
        return
    one = [s for _, s in runs[1]]
    two = [s for _, s in runs[2]]
    ratios = [a / b for a, b in zip(one, two)]
    rates = [(n2 / s2) / (n1 / s1) for (n1, s1), (n2, s2) in zip(runs[1], runs[2])]
    nodes_one = runs[1][0][0]
    nodes_two = statistics.median(n for n, _ in runs[2])
    print("depth %d, %d rounds" % (depth, rounds))
    print("1 thread  median %.3f s (quartiles %s)" % (statistics.median(one), quartiles(one)))
    print("2 threads median %.3f s (quartiles %s)" % (statistics.median(two), quartiles(two)))
    print("ratio of the medians %.2fx; the rounds' ratios: median %.2fx, quartiles %s"
          % (statistics.median(one) / statistics.median(two), statistics.median(ratios), quartiles(ratios)))
    print("2 threads visit %.2fx the nodes (median %d against %d) at %.2fx the node rate (median of rounds)"
          % (nodes_two / nodes_one, nodes_two, nodes_one, statistics.median(rates)))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    engine, depth, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    if "--two-only" in sys.argv[4:]:
        two_only(engine, depth, rounds)
    else:
        interleaved(engine, depth, rounds)


if __name__ == "__main__":
    main()
