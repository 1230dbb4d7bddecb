#!/usr/bin/env python3
"""Find missed wins in one for tests/data/review/missed_wins.txt.

Reads games files (RESULT<TAB>GAMESTRING lines, as `waggle selfplay` writes them) and replays each game through
the UHP engine (`waggle`, no arguments). At every position it plays each valid move (then `undo`) and keeps the
moves after which the mover has won (the GameState field of the reply). Where there is one:
  - if the move played in the game does not win, the case is the game as played (kind `played`);
  - otherwise it picks a legal non-winning move after which the opponent has a win in one itself (so that the
    move plainly keeps no win), and the case is the game cut after that move (kind `made`).
Prints one line a case: GAMESTRING<TAB>PLY<TAB>WIN1 | WIN2 ...<TAB>KIND.

usage: find_missed_wins.py WAGGLE GAMESFILE...
"""
import subprocess
import sys


class Uhp:
    def __init__(self, binary):
        self.p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.read_reply()

    def read_reply(self):
        lines = []
        while True:
            line = self.p.stdout.readline().rstrip("\n")
            if line == "ok":
                return lines
            lines.append(line)

    def batch(self, commands):
        self.p.stdin.write("".join(c + "\n" for c in commands))
        self.p.stdin.flush()
        return [self.read_reply() for _ in commands]

    def ask(self, command):
        return self.batch([command])[0]


def state(reply):
    return reply[0].split(";")[1] if reply and ";" in reply[0] else None


def winners(uhp, mover_wins):
    """The valid moves of the current position that win at once for the side to move."""
    moves = uhp.ask("validmoves")[0].split(";")
    if moves == ["pass"]:
        return moves, []
    replies = uhp.batch([c for m in moves for c in ("play " + m, "undo")])
    return moves, [m for m, r in zip(moves, replies[0::2]) if state(r) == mover_wins]


def main():
    uhp = Uhp(sys.argv[1])
    for name in sys.argv[2:]:
        for line in open(name):
            if "\t" not in line:
                continue
            fields = line.rstrip("\n").split("\t")[1].split(";")
            game_type, moves = fields[0], fields[3:]
            uhp.ask("newgame " + game_type)
            for index, played in enumerate(moves):
                mover, other = ("WhiteWins", "BlackWins") if index % 2 == 0 else ("BlackWins", "WhiteWins")
                valid, wins = winners(uhp, mover)
                prefix = [game_type, "InProgress", "x"] + moves[:index]
                if wins and played not in wins:
                    # The engine's canonical strings: the reply to `play` says which one was played.
                    print(";".join(fields[:3] + moves), index + 1, " | ".join(wins), "played", sep="\t")
                elif wins:
                    for quiet in valid:
                        if quiet in wins:
                            continue
                        after = uhp.ask("play " + quiet)
                        if state(after) != "InProgress":
                            uhp.ask("undo")
                            continue
                        _, answers = winners(uhp, other)
                        uhp.ask("undo")
                        if answers:
                            print(after[0], index + 1, " | ".join(wins), "made", sep="\t")
                            break
                reply = uhp.ask("play " + played)
                if state(reply) not in ("InProgress",):
                    break
            sys.stdout.flush()


main()
