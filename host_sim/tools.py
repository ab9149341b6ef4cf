# SPDX-License-Identifier: MIT
"""Host tools: print a deal's board text, or replay moves onto a deal (CPython only).

    python -m host_sim deal (--seed N | --daily YYYY-MM-DD | --ms N | --code CODE
                             | --board FILE) [--cells K]
    python -m host_sim replay <same deal options> [--moves FILE]
"""

import argparse
import sys

from freecell_mc import deals, notation
from freecell_mc.engine import Game


def _parser(prog):
    """Return the argument parser of one tool."""
    ap = argparse.ArgumentParser(prog="python -m host_sim " + prog)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--seed", type=int, help="seeded deal, 0 .. 4294967295")
    src.add_argument("--daily", metavar="YYYY-MM-DD", help="the daily deal of that date")
    src.add_argument("--ms", type=int, help="Microsoft deal number")
    src.add_argument("--code", help="a deal code, e.g. 24-20261130-4")
    src.add_argument("--board", metavar="FILE", help="board text file ('-' for stdin)")
    ap.add_argument("--cells", type=int, choices=(1, 2, 3, 4), help="free cells (default 4)")
    if prog == "replay":
        ap.add_argument("--moves", metavar="FILE", help="moves file (default: stdin)")
    return ap


def _read(path):
    """Return the text of a file, or of stdin for '-'."""
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as f:
        return f.read()


def _game(args):
    """Return the Game the deal options describe; raise ValueError with a clear message."""
    cells = args.cells
    if args.code is not None:
        kind, number, code_cells = deals.parse_code(args.code)
        if cells is not None and cells != code_cells:
            raise ValueError(
                "the code is for %d free cells, but --cells says %d" % (code_cells, cells)
            )
        g = Game(code_cells)
        g.deal(deals.deck_for(kind, number))
        return g
    if args.board is not None:
        text = _read(args.board)
        if cells is None:
            # A board written for fewer cells says so in its Freecells line.
            cells = notation.board_cells(text) or 4
        g = Game(cells)
        g.load(notation.parse_board(text, cells), 0)
        return g
    g = Game(4 if cells is None else cells)
    if args.seed is not None:
        if not 0 <= args.seed <= 0xFFFFFFFF:
            raise ValueError("seeds are 0 to 4294967295")
        g.deal(deals.seeded_deck(args.seed))
    elif args.ms is not None:
        g.deal(deals.ms_deck(args.ms))
    else:
        parts = args.daily.split("-")
        if len(parts) != 3 or not all(p.isdigit() for p in parts):
            raise ValueError("--daily expects a date as YYYY-MM-DD")
        y, m, d = (int(p) for p in parts)
        if not deals.valid_date(y, m, d):
            raise ValueError("No such date: " + args.daily)
        g.deal(deals.seeded_deck(deals.daily_seed(y, m, d)))
    return g


def replay(game, tokens, out, err):
    """Apply move tokens to game; return the 1-based index of a refused move, or 0."""
    for i, tok in enumerate(tokens, 1):
        try:
            src, dst, n = notation.resolve_move(game, tok)
        except ValueError as e:
            err.write("move %d (%s) refused: %s\n" % (i, tok, e))
            return i
        if not game.move(src, dst, n):  # resolve_move checked it: this is an engine bug
            err.write("move %d (%s) refused by the engine\n" % (i, tok))
            return i
    return 0


def main(argv):
    """Run `deal` or `replay` (argv[0]) with the remaining arguments; return the exit code."""
    prog = argv[0]
    try:
        args = _parser(prog).parse_args(argv[1:])
    except SystemExit as e:
        # argparse exits on --help (0) and on usage errors (2); callers get the code.
        return e.code if isinstance(e.code, int) else 2
    out = sys.stdout
    try:
        g = _game(args)
    except (ValueError, OSError) as e:
        sys.stderr.write("error: %s\n" % e)
        return 2
    if prog == "deal":
        out.write(notation.board_text(g))
        return 0
    try:
        text = _read(args.moves) if args.moves else sys.stdin.read()
    except OSError as e:
        sys.stderr.write("error: %s\n" % e)
        return 2
    bad = replay(g, text.split(), out, sys.stderr)
    out.write(notation.board_text(g))
    out.write("won\n" if g.won() else "not won\n")
    return 1 if bad else 0
