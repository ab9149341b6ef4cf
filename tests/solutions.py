# SPDX-License-Identifier: MIT
"""Freecell Solver's solutions of Microsoft deals (tests/fixtures/fcs_solutions.txt), for tests."""

import os

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "fcs_solutions.txt")


def fcs_solutions():
    """Return [(deal, cells, [moves])] in file order: one card per move, standard notation."""
    out = []
    with open(FIXTURE, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            head, moves = line.split(":", 1)
            deal, cells = head.split()
            out.append((int(deal), int(cells), moves.split()))
    return out


def fcs_solution(deal, cells=4):
    """Return the moves that solve Microsoft deal `deal` with `cells` free cells."""
    for d, c, moves in fcs_solutions():
        if d == deal and c == cells:
            return moves
    raise AssertionError("no solution for deal %d with %d cells" % (deal, cells))
