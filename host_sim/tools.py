# SPDX-License-Identifier: MIT
"""Host tools: print a deal's board text, or replay moves onto a deal (CPython only).

    python -m host_sim deal (--seed N | --daily YYYY-MM-DD | --ms N | --code CODE
                             | --board FILE) [--cells K]
    python -m host_sim replay <same deal options> [--moves FILE]

A bad option or input file ends the tool with one line on stderr and exit status 2; a move
the game refuses ends `replay` with exit status 1 after printing the table up to it.
"""

import sys

from freecell_mc.rules import deals, notation
from freecell_mc.rules.engine import Game
from host_sim import options

_MOVE_MAX = 12  # the longest move is 38:19, a column-to-column run with its count
_EPILOG = (
    "Microsoft deal numbers are 1 to 1,000,000, as on the board. Text files (board, moves) "
    "are UTF-8, at most %s." % options.MAX_TEXT_NAME
)


def _parser(prog):
    """Return the argument parser of one tool."""
    ap = options.Parser(prog="python -m host_sim " + prog, epilog=_EPILOG)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--seed", metavar="N", type=options.seed, help="seeded deal, 0 .. 4294967295")
    src.add_argument(
        "--daily", metavar="YYYY-MM-DD", type=options.daily, help="the daily deal of that date"
    )
    src.add_argument("--ms", metavar="N", type=options.ms, help="Microsoft deal, 1 .. 1000000")
    src.add_argument("--code", type=options.code, help="a deal code, e.g. 24-20261130-4")
    src.add_argument("--board", metavar="FILE", help="board text file ('-' for stdin)")
    ap.add_argument(
        "--cells", metavar="K", type=options.cells, help="free cells, 1 .. 4 (default 4)"
    )
    if prog == "replay":
        ap.add_argument("--moves", metavar="FILE", help="moves file ('-' or none: stdin)")
    return ap


def _game(args):
    """Return the Game the deal options describe; raise ValueError with a clear message."""
    cells = args.cells
    if args.code is not None:
        kind, number, code_cells = args.code
        if cells is not None and cells != code_cells:
            raise ValueError(
                "the code is for %d free cells, but --cells says %d" % (code_cells, cells)
            )
        g = Game(code_cells)
        g.deal(deals.deck_for(kind, number))
        return g
    if args.board is not None:
        text = options.read_text(args.board, "board")
        if cells is None:
            # A board written for fewer cells says so in its Freecells line.
            cells = notation.board_cells(text) or 4
        g = Game(cells)
        try:
            g.load(notation.parse_board(text, cells), 0)
        except ValueError as e:
            name = "stdin" if args.board == "-" else args.board
            raise ValueError("%s: %s" % (name, e)) from None
        return g
    g = Game(4 if cells is None else cells)
    if args.seed is not None:
        g.deal(deals.seeded_deck(args.seed))
    elif args.ms is not None:
        g.deal(deals.ms_deck(args.ms))
    else:
        g.deal(deals.seeded_deck(deals.daily_seed(*args.daily)))
    return g


def replay(game, tokens, out, err):
    """Apply move tokens to game; return the 1-based index of a refused move, or 0."""
    for i, tok in enumerate(tokens, 1):
        if len(tok) > _MOVE_MAX:
            # The message would repeat the whole token: a stray blob of text is one line too.
            err.write("move %d (%s...) refused: not a move (too long)\n" % (i, tok[:_MOVE_MAX]))
            return i
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
    parser = _parser(prog)
    try:
        args = parser.parse_args(argv[1:])
    except SystemExit as e:
        # argparse exits on --help (0) and on usage errors (2); callers get the code.
        return e.code if isinstance(e.code, int) else 2
    out = sys.stdout
    try:
        moves = getattr(args, "moves", None) or "-"
        if prog == "replay" and args.board == "-" and moves == "-":
            raise ValueError(
                "--board - reads the board from stdin, so the moves need --moves FILE"
            )
        g = _game(args)
        text = options.read_text(moves, "moves") if prog == "replay" else ""
    except ValueError as e:
        print(options.error_line(parser.prog, e), file=sys.stderr)
        return 2
    if prog == "deal":
        out.write(notation.board_text(g))
        return 0
    bad = replay(g, text.split(), out, sys.stderr)
    out.write(notation.board_text(g))
    out.write("won\n" if g.won() else "not won\n")
    return 1 if bad else 0
