# SPDX-License-Identifier: MIT
"""Make the screenshots of every screen and state in docs/, on all three boards.

    python -m tools.screenshots [--out docs] [--board pyportal|pynt|titano|all]

Each picture is the real App on the simulator's framebuffer display, brought into its
state as a player brings it there (tests/screen_states.py, the states tests/test_sizes.py
measures): the menu with one game, with both slots and with nothing begun (no Continue),
the daily calendar (over a month's end too), the statistics of a few weeks of play, the
keypad as it opens and with a mistyped code, the settings (the backlight's times too), the
touch calibration, the date picker, the question before a game is given up, the notice,
and the table with a card held, dimmed, with a 19-card column (on the Pynt, opened in
the lens too), dead ends (beside short
columns and a 19-card one, and the whole message a tap on its first words opens), a game
taken up after a restart (Undo greyed), Finish and a won game's result (with the other
slot's game too); where the Pynt's panel takes more pages, its second page too. The table in
mid-game comes from code.py on the headless simulator, playing host_sim/scripts/docs_table.txt.
Every file is NAME-WxH.png, the Pynt's NAME-pynt-320x240.png.
"""

import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
from freecell_mc.ui import layout  # noqa: E402  (after the root is on the path)

BOARDS = tuple(b[0] for b in layout.BOARDS)  # the boards' names, where every board is listed
_TWO_PAGES = ("pynt",)  # the boards whose menu, settings and calendar take a second page


def _env():
    for path in (ROOT, os.path.join(ROOT, "tests")):  # tests/ for the states and the harness
        if path not in sys.path:
            sys.path.insert(0, path)
    from host_sim import headless_env

    headless_env()
    from host_sim import font

    font.install()  # the board's font: the screens draw their text with it


def weeks_of_play(saves):
    """Put into saves the statistics and won days that a few weeks of play leave."""
    st = saves.stats
    games = ((412, 97), (605, 112), (288, 88), (731, 125), (350, 101), (498, 93), (540, 109))
    for secs, moves in games:
        st.record_start()
        st.record_win(secs, moves)
    for _ in range(3):
        st.record_start()
    for d in (3, 4, 9, 12, 17, 18, 24, 29):
        st.mark_day_won(2026, 11, d)


def seed_saves(nvm_path):
    """Write statistics and won days into the board's nvm, as weeks of play would leave them."""
    from freecell_mc.saves.policy import Saves
    from host_sim.flash import FlashBlock

    saves = Saves([FlashBlock(nvm_path, 8192)])
    saves.load()
    weeks_of_play(saves)
    saves.note_date(2026, 11, 28)
    saves.commit(0, force=True)


class NoSuchPageError(Exception):
    """A page of How to play the board's panel does not take (it takes fewer)."""


HOWTO_PAGES = 14  # the most pages How to play takes (the Pynt's)


def shots():
    """Return [(name, function that brings a PanelBoard into the state, boards)]."""
    from freecell_mc.rules import deals
    from screen_states import STATES, move

    def weeks(then):
        def setup(board):
            weeks_of_play(board.app.saves)
            then(board)
        return setup

    def calendar(board):
        board.app.start_daily(2026, 11, 20)
        for _ in range(3):
            move(board)
        board.app.switch_slot(0)
        board.app.goto("daily")

    def older(board):
        calendar(board)
        s = board.app.screen
        s.tap(s.page.x + s.page.w // 2, s.page.y + s.page.h // 2)

    def question(board):
        app = board.app
        app.start_daily(2026, 11, 30)
        for _ in range(3):
            move(board)
        app.goto("daily")
        app.start_daily(2026, 11, 28)

    def result(board):
        board.app.goto("result", moves=97, seconds=412,
                       code=deals.deal_code(deals.KIND_DAILY, 20261130, 4),
                       kind=deals.KIND_DAILY, number=20261130)

    def held(board):
        # Microsoft deal #1 along Freecell Solver's solution until a card may go onto a
        # card as well as into an empty place, held: both looks of a lit target show.
        from freecell_mc.rules import notation
        from solutions import fcs_solution

        app = board.app
        game = app.game
        for text in fcs_solution(1):
            src, dst, n = notation.resolve_move(game, text)
            game.move(src, dst, n)
            if game.moves < 12:
                continue
            for c in range(8):
                m = game.targets(c, 1)
                if m & 0xFF and m & ~0xFF and any((m >> d) & 1 and game.column_len(d)
                                                  for d in range(8)):
                    app.table.redraw()
                    app.table.select(c, 1)
                    return
        raise AssertionError("no card to hold")

    def picker(board):
        board.app.goto("datepicker", then="table", date=(2026, 12, 1))

    def howto(page):
        def setup(board):
            board.app.goto("howto")
            if page >= board.app.screen.pages:
                raise NoSuchPageError(page)
            board.app.goto("howto", page=page)
        return setup

    every = BOARDS
    return [
        ("menu", STATES["menu:one-slot"], every),
        ("menu_fresh_deal", STATES["menu:no-continue"], every),
        ("menu_two_slots", STATES["menu:two-slots-free"], every),
        ("menu_more", STATES["menu:second-page"], _TWO_PAGES),
        ("menu_daily", weeks(calendar), every),
        ("menu_daily_older", weeks(older), _TWO_PAGES),
        ("menu_daily_month", STATES["daily:month-boundary"], every),
        ("menu_stats", weeks(lambda b: b.app.goto("stats")), every),
        ("menu_keypad", STATES["keypad:empty"], every),
        ("menu_keypad_error", STATES["keypad:check-digit"], every),
        ("menu_settings", STATES["settings"], every),
        ("menu_settings_more", STATES["settings:second-page"], _TWO_PAGES),
        ("menu_settings_backlight", STATES["settings:backlight"], every),
        ("menu_calibration", STATES["calibration:first"], every),
        ("menu_datepicker", picker, every),
        ("menu_confirm", question, every),
        ("menu_notice", STATES["notice:older"], every),
        ("menu_notice_no_save_file", STATES["notice:no-save-file"], every),
        ("menu_notice_no_room", STATES["notice:no-room"], every),
    ] + [
        ("howto_p%d" % (k + 1), howto(k), every) for k in range(HOWTO_PAGES)
    ] + [
        ("table-held", held, every),
        ("table-dimmed", STATES["table:dimmed"], every),
        ("table-long-column", STATES["table:19-cards"], every),
        ("table-long-column-lens", STATES["table:19-cards-lens"], ("pynt",)),
        ("table-dead-end", STATES["table:dead-end"], every),
        ("table-dead-end-19-cards", STATES["table:dead-end-19-cards"], every),
        ("table-dead-end-short-columns", STATES["table:dead-end-short-columns"], every),
        ("table-dead-end-open", STATES["table:open-dead-end"], ("pynt",)),
        ("table-restored", STATES["table:undo-unavailable-restored"], every),
        ("table-finish", STATES["table:finish"], every),
        ("table-result", result, every),
        ("table-result-other-slot", STATES["result:ms-other-slot"], every),
    ]


def tag(board):
    """Return the end of a picture's name on board: -WxH, or -pynt-320x240 for the Pynt."""
    from host_sim.hardware import BOARDS as SIM

    size = "%dx%d" % SIM[board][1:]
    return "-pynt-" + size if board == "pynt" else "-" + size


def run(out, board="pyportal", only=""):
    """Write the screenshots of board whose names start with only into out; return their paths."""
    _env()
    from screen_states import PanelBoard

    paths = []
    for name, setup, boards in shots():
        if board not in boards or not name.startswith(only):
            continue
        b = PanelBoard(board)
        try:
            try:
                setup(b)
            except NoSuchPageError:
                continue
            b.app.dirty = True
            b.poll()
            path = os.path.join(out, name + tag(board) + ".png")
            b.hw.display.save_png(path)
            paths.append(path)
        finally:
            b.close()
    if "table".startswith(only):
        paths.append(table_shot(out, board, "table" + tag(board) + ".png"))
    return paths


def table_shot(out, board, name):
    """Write the table in mid-game on board, from the script the README names; return its path."""
    from freecell_mc.rules import deals

    path = os.path.join(out, name)
    with open(os.path.join(ROOT, "host_sim", "scripts", "docs_table.txt")) as f:
        lines = [ln for ln in f.read().splitlines() if ln.strip() and not ln.startswith("#")]
    _play(board, None, tempfile.mkdtemp(prefix="fcmc-shots-"), lines + ["shot " + path],
          "the table run", date="2026-11-30", start=(deals.KIND_MS, 1, 4))
    return path


def _play(board, nvm, tmp, lines, what, date=None, start=None):
    """Run code.py on the board with these nvm and drive, playing the script lines."""
    from host_sim import script, sim

    s = sim.Simulator(board=board, headless=True, date=date, nvm_path=nvm,
                      drive=os.path.join(tmp, "drive"), script=script.parse("\n".join(lines)),
                      start_deal=start)
    try:
        if s.run() != 0:
            raise SystemExit("%s failed: %s" % (what, s.failure))
    finally:
        s.close()


def build_parser():
    """Return the command line's parser."""
    _env()
    from host_sim import options

    p = options.Parser(prog="python -m tools.screenshots", description=__doc__.split("\n")[0])
    p.add_argument("--out", metavar="DIR", default=os.path.join(ROOT, "docs"),
                   help="the folder to write them into, made if missing (default docs/)")
    p.add_argument("--board", default="all", choices=("all",) + BOARDS)
    return p


def main(argv=None):
    """Make the screenshots from the command line; return the exit code (2: bad arguments)."""
    p = build_parser()
    args = p.parse_args(argv)
    from host_sim import options

    try:
        out = options.folder(args.out, "--out")
    except ValueError as e:
        p.refuse(e)
    os.makedirs(out, exist_ok=True)
    boards = BOARDS if args.board == "all" else (args.board,)
    for board in boards:
        for path in run(out, board):
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
