"""What benches/time_to_depth.py and benches/depth_in_time.py share: the 42 middle games of
benches/midgame_positions.txt, and the MaxHelperThreads value for a number of search threads."""
import os
import sys


def positions():
    """The game strings of benches/midgame_positions.txt, one per position."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "midgame_positions.txt")) as f:
        return [line.strip() for line in f if line.strip()]


def helper_threads(threads):
    """The MaxHelperThreads option's value for `threads` search threads in all."""
    return "None" if threads <= 1 else str(threads - 1)


def arguments(usage, last_default):
    """ENGINE, a number, THREADS and an optional last number from the command line (the script's `usage` when
    they are missing)."""
    if len(sys.argv) < 4:
        sys.exit(usage)
    last = int(sys.argv[4]) if len(sys.argv) > 4 else last_default
    return sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), last
