#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Regenerate the engine's fixture data from independent peers (needs fc-solve installed).

    .venv/bin/python tools/make_fixtures.py

Writes, under tests/fixtures/:
  ms_deals_fcs.txt    Microsoft deals as printed by `make-microsoft-freecell-board -t N`
  ms_deals_pysol.txt  the same deals as dealt by pysol-cards (a second, separate dealer)
  fcs_solutions.txt   Freecell Solver's solutions, one card per move, standard notation

The solutions come from fc-solve's atomic-moves preset `sand-stone` (every move carries one
card). Standard notation does not say how many cards a move into an empty column carries, and
FreeCell MC reads a bare `38` into an empty column as the longest run the capacity allows, so
such moves get an explicit `:1`, found from the position fc-solve prints before each move
(`-sam`). The tests only read the committed files; nothing here runs during pytest.
"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures")

MS_DEALS = (1, 617, 11982, 1234567, 3000000000)

# (first deal, how many solutions, free cells): deals fc-solve cannot solve with that many
# cells (11982 with any) are skipped and noted, and the next deal is taken.
SOLUTION_SETS = ((1, 100, 4), (101, 10, 3), (111, 10, 2))

FCS_FLAGS = ["-l", "sand-stone", "-sam", "-sn", "-p", "-t", "-sel"]


def run(cmd, stdin=None):
    """Run cmd and return its stdout; fail loudly."""
    env = dict(os.environ, FREECELL_SOLVER_QUIET="1")
    res = subprocess.run(cmd, input=stdin, capture_output=True, text=True, check=True, env=env)
    return res.stdout


def fcs_board(n):
    """Return Microsoft deal n as make-microsoft-freecell-board prints it (T for ten)."""
    return run(["make-microsoft-freecell-board", "-t", str(n)])


def pysol_board(n):
    """Return Microsoft deal n as pysol-cards deals it."""
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game
    from pysol_cards.random_base import RandomBase

    text = Game("freecell", n, RandomBase.DEALS_MS).calc_layout_string(CardRenderer(True))
    return "\n".join(line.rstrip() for line in text.splitlines() if line.strip()) + "\n"


def solve(board, cells):
    """Return fc-solve's one-card-per-move solution of board as move tokens, or None."""
    out = run(["fc-solve", "--freecells-num", str(cells)] + FCS_FLAGS + ["-"], board)
    if "This game is solveable." not in out:
        return None
    moves = []
    columns = None
    for line in out.splitlines():
        s = line.strip()
        if s.startswith("Foundations:"):
            columns = []
        elif s.startswith(":") and columns is not None:
            columns.append(s[1:].split())
        elif s.startswith("Move:"):
            tok = s.split()[1]
            if len(tok) != 2:
                raise RuntimeError("unexpected move " + tok)
            dst = tok[1]
            if tok[0] in "12345678" and dst in "12345678" and not columns[int(dst) - 1]:
                tok += ":1"
            moves.append(tok)
            columns = None
    return moves


def build_parser():
    """Return the command line's parser: it takes no arguments."""
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from host_sim import options

    return options.Parser(prog="python tools/make_fixtures.py",
                          description=__doc__.split("\n")[0])


def main(argv=None):
    """Write the fixture files; return the exit code (2: arguments, which it takes none of)."""
    p = build_parser()
    p.parse_args(sys.argv[1:] if argv is None else argv)
    os.makedirs(FIXTURES, exist_ok=True)
    for name, dealer in (("ms_deals_fcs.txt", fcs_board), ("ms_deals_pysol.txt", pysol_board)):
        with open(os.path.join(FIXTURES, name), "w", encoding="utf-8") as f:
            f.write("# Microsoft deals, made by tools/make_fixtures.py\n")
            for n in MS_DEALS:
                f.write("deal %d\n" % n)
                f.write(dealer(n))
    path = os.path.join(FIXTURES, "fcs_solutions.txt")
    with open(path, "w", encoding="utf-8") as f:
        f.write("# Freecell Solver solutions of Microsoft deals, made by tools/make_fixtures.py\n")
        f.write("# fc-solve %s, one card per move; line: <deal> <cells>: <moves>\n"
                % " ".join(FCS_FLAGS))
        for first, count, cells in SOLUTION_SETS:
            n = first
            while count:
                moves = solve(fcs_board(n), cells) if n != 11982 else None
                if moves is None:
                    f.write("# deal %d with %d cells: no solution found, skipped\n" % (n, cells))
                else:
                    f.write("%d %d: %s\n" % (n, cells, " ".join(moves)))
                    sys.stdout.write("deal %d, %d cells: %d moves\n" % (n, cells, len(moves)))
                    count -= 1
                n += 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
