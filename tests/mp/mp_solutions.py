# SPDX-License-Identifier: MIT
"""Freecell Solver's solutions of Microsoft deals, replayed through notation and the engine.

For each deal: the board text round-trips through parse_board, every move of the solution is
resolved from standard notation and played, the game ends won, and undo takes it all back to
the deal. The driver runs this on MicroPython and on CPython and compares the reports.
"""

from mpcheck import load_input, emit, check
from freecell_mc.rules import deals, notation
from freecell_mc.rules.engine import Game


def replay(number, cells, moves):
    """Play one solution; return [deal, moves played, board text at the start, at the end]."""
    g = Game(cells=cells)
    g.deal(deals.ms_deck(number))
    start = notation.board_text(g, True)
    check(bytes(notation.parse_board(start, cells)) == bytes(g.pos),
          "deal %d: board text does not round-trip" % number)
    dealt = bytes(g.pos)
    for tok in moves.split():
        src, dst, n = notation.resolve_move(g, tok)
        check(g.move(src, dst, n), "deal %d: %s refused" % (number, tok))
        # The printed move reads back as the same move (a foundation prints as plain h).
        s2, d2, _ = notation.parse_move(notation.move_text(src, dst, n))
        check(s2 == src and (d2 == dst or (dst >= 12 and d2 == 12)),
              "deal %d: %s does not print back" % (number, tok))
    check(g.won(), "deal %d: the solution does not win" % number)
    played = g.moves
    while g.undo():
        pass
    check(bytes(g.pos) == dealt and g.moves == 0, "deal %d: undo does not return" % number)
    return [number, played, start, notation.board_text(g, True)]


def main():
    """Replay every solution in the input and report."""
    data = load_input()
    out = []
    for number, cells, moves in data["solutions"]:
        out.append(replay(number, cells, moves))
    emit("solutions", out)


main()
