# SPDX-License-Identifier: MIT
"""Make the screenshots of every screen in docs/, at both sizes, with the headless simulator.

    python -m tools.screenshots [--out docs] [--board pyportal|titano|all]

A board whose statistics hold a few weeks of play (written into its nvm first, as the
game itself would) runs code.py, and a script visits the menu, the daily calendar, the
statistics, the keypad (as it opens and with a mistyped code), the settings, the touch
calibration and, after a power-up with the clock reset, the date picker. The table's
pictures (mid-game, a held card, a 19-card column, a dead end, the result) come from
host_sim/scripts/docs_table.txt and bench/ui.py. Every file is NAME-WxH.png.
"""

import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOTS = ("menu", "menu_daily", "menu_stats", "menu_keypad", "menu_keypad_error",
         "menu_settings", "menu_calibration", "menu_datepicker")


def _env():
    for path in (ROOT, os.path.join(ROOT, "tests")):  # tests/ for the screens built off-line
        if path not in sys.path:
            sys.path.insert(0, path)
    from host_sim import headless_env

    headless_env()
    from host_sim import font

    font.install()  # the board's font: the screens built off-line draw their text with it


def seed_saves(nvm_path):
    """Write statistics and won days into the board's nvm, as weeks of play would leave them."""
    from freecell_mc.saves.policy import Saves
    from host_sim.flash import FlashBlock

    saves = Saves([FlashBlock(nvm_path, 8192)])
    saves.load()
    st = saves.stats
    games = ((412, 97), (605, 112), (288, 88), (731, 125), (350, 101), (498, 93), (540, 109))
    for secs, moves in games:
        st.record_start()
        st.record_win(secs, moves)
    for _ in range(3):
        st.record_start()
    for d in (3, 4, 9, 12, 17, 18, 24, 29):
        st.mark_day_won(2026, 11, d)
    saves.note_date(2026, 11, 28)
    saves.commit(0, force=True)


def centre(name, text, date, size, nth=0):
    """Return 'tap X Y' for the button captioned text on a screen built off-line."""
    from test_screens import FakeApp, make

    app, s = make(name, FakeApp(size[0], size[1], date=date))
    b = [b for b in s.buttons if b.text == text][nth]
    return "tap %d %d" % (b.x + b.w // 2, b.y + b.h // 2)


def run(out, board="pyportal"):
    """Write the screenshots into out; return their paths."""
    _env()
    from freecell_mc.rules import deals
    from host_sim.hardware import BOARDS

    size = BOARDS[board][1:]
    tmp = tempfile.mkdtemp(prefix="fcmc-shots-")
    nvm = os.path.join(tmp, "nvm.bin")
    seed_saves(nvm)
    today = (2026, 11, 30)
    bad = deals.deal_code(deals.KIND_DAILY, 20261130, 4)
    bad = bad[:-1] + str((int(bad[-1]) + 1) % 10)
    tag = "-%dx%d" % size
    paths = [os.path.join(out, n + tag + ".png") for n in SHOTS]
    lines = [
        "key esc", "shot " + paths[0],
        centre("menu", "Daily deal", today, size), "shot " + paths[1], "key esc",
        centre("menu", "Statistics", today, size), "shot " + paths[2], "key esc",
        centre("menu", "Enter code", today, size), "shot " + paths[3],
    ]
    lines += [centre("keypad", ch, today, size) for ch in bad]
    lines += [centre("keypad", "OK", today, size), "shot " + paths[4], "key esc",
              centre("menu", "Settings", today, size), "shot " + paths[5],
              centre("settings", "Calibrate", today, size), "shot " + paths[6]]
    _play(board, nvm, tmp, lines, "the screenshot run", date="2026-11-30")
    # The next day, a power-up with a flat clock: the game asks for the date, starting
    # from the last it knew (30 November), and one tap on the day's + makes it 1 December.
    plus_day = centre("datepicker", "+", (2026, 11, 30), size, nth=2)
    lines = ["expect screen datepicker", plus_day, "shot " + paths[7]]
    _play(board, nvm, tmp, lines, "the date picker run")
    return paths + [table_shot(out, board, "table" + tag + ".png")]


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
    p.add_argument("--board", default="all", choices=("all", "pyportal", "pynt", "titano"))
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
    boards = ("pyportal", "titano") if args.board == "all" else (args.board,)
    for board in boards:
        for path in run(out, board):
            print(path)
    if args.board == "all":
        # The table's own pictures, at both sizes (held card, long column, dead end, result).
        from bench import ui

        ui.shots(out)
        print(os.path.join(out, "table-*.png"))
        # The Pynt's table: the same pixels as the PyPortal's on a smaller panel.
        print(table_shot(out, "pynt", "table-pynt-320x240.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
