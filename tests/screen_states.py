# SPDX-License-Identifier: MIT
"""Every state each screen can be in, reached on the real App as a player reaches it.

tests/test_sizes.py measures each on the three boards; tools/screenshots.py draws the
docs' pictures from them. A state is a function that brings a PanelBoard (the test
harness's board with a board's panel density and saves in an nvm block) into it: a move
made, a question asked, a code typed, a calendar on a given day.
"""

from freecell_mc.rules import deals, notation
from freecell_mc.ui import layout
from freecell_mc.ui.layout import SLOT_CELL, SLOT_FOUND
from test_ui_harness import HW, Board

# board -> (board_id, width, height)
BOARDS = {name: (board_id, w, h) for name, board_id, w, h, _ in layout.BOARDS}


# -- the panel -----------------------------------------------------------------------


class Bus:
    """The I2C bus of a board with nothing plugged in: its own chips (host_sim.hardware)."""

    def __init__(self, board):
        from host_sim.hardware import board_chips

        self.chips = board_chips(board)

    def try_lock(self):
        return True

    def unlock(self):
        pass

    def writeto_then_readfrom(self, address, out, buf, **kw):
        chip = self.chips.get(address)
        if chip is None:
            raise OSError(19, "No such device")
        chip.write(bytes(out))
        buf[:] = chip.read(len(buf))


class BoardModule:
    """The board module of a board as it reports itself: its board_id and its I2C bus."""

    def __init__(self, board):
        from host_sim.hardware import BOARDS as REPORTED

        self.board_id = REPORTED[board][0]
        self.bus = Bus(board)

    def I2C(self):  # noqa: N802  (the board's own name)
        return self.bus


def panel_ppcm(board):
    """Return the density the game finds for a board as it reports itself, with no
    settings.toml: the Pynt says "pyportal" and has no ADT7410 (device.board_name)."""
    from freecell_mc.hardware.device import board_name

    _, w, h = BOARDS[board]
    return layout.panel_ppcm(board_name(BoardModule(board)), w, h)


class PanelHW(HW):
    """The harness hardware with the panel density of a board, as the board finds it."""

    def __init__(self, board, start, blocks, date):
        _, w, h = BOARDS[board]
        super().__init__(w, h, start, blocks, date)
        self.ppcm = panel_ppcm(board)


class PanelBoard(Board):
    """A Board whose App knows its panel and keeps its saves in an nvm block."""

    def __init__(self, board, start=(deals.KIND_MS, 1, 4), date=(2026, 11, 30)):
        self.name = board
        self.hw = PanelHW(board, start, [bytearray(8192)], date)
        from freecell_mc.app import App

        self.app = App(self.hw)
        self.poll()


# -- the states ----------------------------------------------------------------------

STATES = {}


def state(name):
    """Register a function that brings a PanelBoard into the state called name."""

    def deco(fn):
        STATES[name] = fn
        return fn

    return deco


def move(board):
    """Make one legal move at the table (a column's card into a free cell or home)."""
    app = board.app
    if app.screen is not app.table:
        app.goto("table")
    g = app.game
    places = list(range(SLOT_FOUND, SLOT_FOUND + 4)) + list(range(SLOT_CELL, SLOT_CELL + g.cells))
    for c in range(8):
        for dst in places:
            if g.column_len(c) and app.table.play(c, dst, 1):
                return
    raise AssertionError("no move")


def load(board, text, moves=0):
    """Put board text on the table."""
    app = board.app
    if app.screen is not app.table:
        app.goto("table")
    board.load(text, moves)


def code(body):
    """Return the deal code of digits body with its check digit, dashed as the game writes it."""
    return body[:2] + "-" + body[2:] + "-" + str(deals.damm(body))


def long_column_text():
    """Return a board whose first column holds 19 cards: six, then a king's run of 13."""
    run = "KS QH JC TD 9S 8H 7C 6D 5S 4H 3C 2D AS".split()
    first = ["2C", "3D", "4C", "5D", "6C", "7D"] + run
    rest = [r + s for s in "CDHS" for r in "A23456789TJQK" if r + s not in first]
    cols = [first] + [[] for _ in range(7)]
    for i, c in enumerate(rest):
        cols[1 + i % 7].append(c)
    return "\n".join(" ".join(c) for c in cols) + "\n"


def lengths_text(lengths):
    """Return a board whose columns have these lengths (the rest of the deck in cells/home)."""
    # Foundations take the lowest cards so that the columns can hold any lengths.
    home = 52 - sum(lengths)
    per = [home // 4 + (1 if i < home % 4 else 0) for i in range(4)]
    found = []
    left = []
    for s_i, s in enumerate("CDHS"):
        found.append("%s-%d" % (s, per[s_i]))
        left += [r + s for r in "A23456789TJQK"[per[s_i]:]]
    left.sort(key=lambda c: -"A23456789TJQK".index(c[0]))
    cols = []
    k = 0
    for n in lengths:
        cols.append(left[k:k + n])
        k += n
    text = "\n".join(" ".join(c) if c else ":" for c in cols)
    return text + "\nFoundations: " + " ".join(found) + "\n"


@state("table")
def _table(board):
    board.app.goto("table")


@state("table:held")
def _held(board):
    for _ in range(3):
        move(board)
    t = board.app.table
    for c in range(8):
        if board.app.game.targets(c, 1):
            t.select(c, 1)
            return
    t.select(0, 1)


@state("table:moves-1234")
def _moves(board):
    move(board)
    g = board.app.game
    load(board, notation.board_text(g), 1234)


@state("table:dimmed")
def _dimmed(board):
    # Three moves, then a quiet spell one second past the default's: the dimmed table.
    from freecell_mc.hardware.backlight import DIM
    from freecell_mc.saves.settings import DIM_AFTER_S, DIM_DEFAULT

    for _ in range(3):
        move(board)
    board.poll()
    board.hw.clock.ms += DIM_AFTER_S[DIM_DEFAULT] * 1000 + 1000
    board.poll()
    assert board.app.backlight.state == DIM


@state("table:finish")
def _finish(board):
    load(board, "KC\nKD\nKH\nKS\n:\n:\n:\n:\nFoundations: C-Q D-Q H-Q S-Q\n", 99)
    assert board.app.table.strip.finish_shown


@state("table:dead-end")
def _dead(board):
    cols = [["8C", "2S"], ["KC"], ["KS"], ["QC"], ["QS"], ["JC"], ["JS"], ["9S"]]
    named = {c for col in cols for c in col} | {"2D", "2H", "2C"}
    rest = [r + s for s in "CDHS" for r in "A23456789TJQK" if r + s not in named]
    for i, c in enumerate(rest):
        cols[i % 8].insert(0, c)
    load(board, "\n".join(" ".join(c) for c in cols) + "\nFreecells: 2D 2H 2C -\n", 63)
    board.app.table.play(0, SLOT_CELL + 3, 1)
    board.poll()  # the poll's tick builds the panel the move asked for
    assert board.app.table.strip.dead_end_shown


def dead_end_text(lengths):
    """Return a dead end whose columns have these lengths (47 cards in all).

    Every exposed card and every card in the four full cells is black and no ace or two
    of clubs is among them (the ace of clubs is home): nothing goes on anything, nothing
    goes home, and with the cells full no run may move.
    """
    assert sum(lengths) == 47 and all(lengths)
    black = [r + s for s in "CS" for r in "3456789TJQK"] + ["2S"]
    cells = black[:4]
    feet = black[4:12]
    rest = [r + s for s in "CDHS" for r in "A23456789TJQK"
            if r + s not in cells + feet and r + s != "AC"]
    cols = []
    for c, n in enumerate(lengths):
        cols.append(rest[:n - 1] + [feet[c]])
        rest = rest[n - 1:]
    return ("\n".join(" ".join(c) for c in cols) + "\nFreecells: " + " ".join(cells)
            + "\nFoundations: C-1 D-0 H-0 S-0\n")


def _dead_end(lengths):
    def setup(board):
        load(board, dead_end_text(lengths), 88)
        assert board.app.game.dead_end() and board.app.table.strip.dead_end_shown
    return setup


state("table:dead-end-19-cards")(_dead_end([19, 4, 4, 4, 4, 4, 4, 4]))
state("table:dead-end-19-cards-right")(_dead_end([4, 4, 4, 4, 4, 4, 4, 19]))
state("table:dead-end-short-columns")(_dead_end([6, 6, 6, 6, 6, 6, 6, 5]))
state("table:dead-end-long-columns")(_dead_end([10, 1, 10, 1, 10, 1, 13, 1]))


@state("table:open-dead-end")
def _open_dead(board):
    # A dead end whose panel has room for its first words only (the Titano's "No moves
    # left.", the Pynt's "No moves"), tapped: the whole message over the columns until the
    # next tap. The PyPortal shows it whole beside the cards already.
    from freecell_mc.ui.tableview import DEAD_END

    _dead(board)
    strip = board.app.table.strip
    x, y, w, h = strip.dead_box
    if strip.dead_text.text.replace("\n", " ") != DEAD_END:
        board.app.table.tap(x + w // 2, y + h // 2)
    assert strip.dead_text.text.replace("\n", " ") == DEAD_END


@state("table:undo-available")
def _undo_on(board):
    move(board)
    assert board.app.table.strip.undo_button.enabled


@state("table:undo-unavailable-restored")
def _undo_off(board):
    # A game taken up at a start: moves played, no history to take back.
    move(board)
    load(board, notation.board_text(board.app.game), 1)
    assert not board.app.table.strip.undo_button.enabled


@state("table:19-cards")
def _long(board):
    load(board, long_column_text(), 77)


@state("table:19-cards-lens")
def _long_lens(board):
    # Where the long column's covered cards show the smaller index (the Pynt), a tap on
    # them opens the lens: the column whole at the full index. Elsewhere the column as is.
    _long(board)
    table = board.app.table
    lay = table.layout
    if lay.tight_h:
        x, _ = lay.tap_point(0)
        board.tap(x, lay.col_y + 2)
        assert table.lens_col == 0


@state("table:13-cards")
def _thirteen(board):
    load(board, lengths_text([13, 13, 13, 13, 0, 0, 0, 0]), 50)


@state("table:one-cell")
def _one_cell(board):
    board.app.start_deal(deals.KIND_MS, 1, 1, True)


def _two_slots(board, current_daily, free=(deals.KIND_MS, 1000000)):
    """Leave a game begun in both slots, the daily's or the free one in play."""
    app = board.app
    app.start_deal(free[0], free[1], 4, True)
    move(board)
    app.start_daily(2026, 11, 30)
    move(board)
    if not current_daily:
        app.switch_slot(0)


@state("menu:one-slot")
def _menu(board):
    move(board)
    board.app.goto("menu")


@state("menu:one-slot-daily")
def _menu_daily(board):
    board.app.start_daily(2026, 11, 30)
    move(board)
    board.app.goto("menu")


@state("menu:no-continue")
def _menu_fresh(board):
    # A deal not begun (a number just typed in, say): Continue goes back to it all the same.
    board.app.goto("menu")
    assert [b for b in board.app.screen.buttons if b.text.startswith("Continue")]


@state("menu:won")
def _menu_won(board):
    load(board, "KC\nKD\nKH\nKS\n:\n:\n:\n:\nFoundations: C-Q D-Q H-Q S-Q\n", 99)
    board.app.table.start_finish()
    while board.app.table.finishing:
        board.app.table.finish_step()
    assert board.app.game.won()
    board.app.goto("menu")
    assert not [b for b in board.app.screen.buttons if b.text.startswith("Continue")]


@state("menu:two-slots-free")
def _menu2(board):
    _two_slots(board, False)
    board.app.goto("menu")


@state("menu:two-slots-daily")
def _menu2d(board):
    _two_slots(board, True)
    board.app.goto("menu")


@state("menu:two-slots-seed")
def _menu2s(board):
    _two_slots(board, False, (deals.KIND_SEED, 4294967295))
    board.app.goto("menu")


@state("menu:second-page")
def _menu_page(board):
    # Where the menu takes two pages (two slots on the Pynt), its second; else the one page.
    _two_slots(board, False)
    board.app.goto("menu", page=1)


@state("confirm:replay")
def _q_replay(board):
    move(board)
    board.app.replay()
    assert board.app.screen.name == "confirm" and board.app.screen.back.hidden


@state("confirm:new-deal")
def _q_new(board):
    board.app.start_deal(deals.KIND_MS, 1000000, 4, True)
    move(board)
    board.app.goto("menu")
    board.app.new_deal()
    assert board.app.screen.name == "confirm" and not board.app.screen.back.hidden


@state("confirm:code")
def _q_code(board):
    move(board)
    app = board.app
    app.goto("keypad")
    for ch in "1000000":
        app.screen.key(ch)
    app.screen.key("enter")
    assert app.screen.name == "confirm"


@state("confirm:other-day")
def _q_day(board):
    app = board.app
    app.start_daily(2026, 11, 30)
    move(board)
    load(board, notation.board_text(app.game), 1234)  # the longest count a question names
    app.goto("daily")
    app.start_daily(2026, 11, 1)
    assert app.screen.name == "confirm"


@state("confirm:other-slot")
def _q_slot(board):
    _two_slots(board, True)
    app = board.app
    app.goto("menu")
    app.new_deal()
    assert app.screen.name == "confirm"


@state("notice:older")
def _n_older(board):
    from freecell_mc.saves.policy import MSG_OLDER

    board.app.goto("notice", text=MSG_OLDER)


@state("notice:unreadable")
def _n_unread(board):
    from freecell_mc.saves.policy import MSG_UNREADABLE

    board.app.goto("notice", text=MSG_UNREADABLE)


@state("notice:newer")
def _n_newer(board):
    from freecell_mc.saves.policy import MSG_NEWER

    board.app.goto("notice", text=MSG_NEWER)


@state("notice:no-save-file")
def _n_no_file(board):
    from freecell_mc.saves import notices
    from freecell_mc.saves.savelog import NO_FILE

    board.app.goto("notice", text=notices.limited(NO_FILE, None))


@state("notice:no-room")
def _n_no_room(board):
    from freecell_mc.saves import notices
    from freecell_mc.saves.savelog import NO_FILE

    class Full:  # a drive with 300 KB free: the save file needs more
        def free_bytes(self):
            return 300 * 1024

    board.app.goto("notice", text=notices.limited(NO_FILE, Full()))


@state("notice:from-backup")
def _n_backup(board):
    from freecell_mc.saves import notices

    board.app.goto("notice", text=notices.from_backup(True, (2026, 11, 30)))


def _typed(board, text, enter=False):
    app = board.app
    app.goto("keypad")
    for ch in text:
        app.screen.key(ch)
    if enter:
        app.screen.key("enter")
    assert app.screen.name == "keypad"


KEYPAD = {
    "empty": ("", False),
    "ms-number": ("1000000", False),
    "longest": ("1234567890123456", False),
    "no-entry": ("", True),
    "ms-range": ("1000001", True),
    "too-short": ("1-2", True),
    "too-long": ("1234567890-12345", True),
    "check-digit": ("24-20261130-5", True),
    "no-kind": (code("941"), True),
    "cells": (code("151"), True),
    "ms-zero": (code("340"), True),
    "no-date": (code("2420261131"), True),
    "seed-range": (code("144294967296"), True),
    "future-day": (code("2420261201"), True),
    "before-2025": (code("2420241231"), True),
}


def _keypad_state(entry, enter):
    def setup(board):
        _typed(board, entry, enter)
        if enter:
            assert board.app.screen.error_bg.hidden is False
    return setup


for _k, (_entry, _enter) in KEYPAD.items():
    state("keypad:" + _k)(_keypad_state(_entry, _enter))


@state("keypad:day-unknown")
def _k_unknown(board):
    app = board.app
    app.clock.date = (2000, 1, 1)
    app.saves.last_date = None
    _typed(board, code("2420261130"), True)
    assert not app.screen.error_bg.hidden


def _calendar(date, won=(), started=None):
    def setup(board):
        app = board.app
        app.clock.date = date
        if started is not None:
            app.start_daily(*started)
            move(board)
        for d in won:
            app.saves.stats.mark_day_won(*d)
        app.goto("daily")
    return setup


state("daily:one-month")(_calendar((2026, 11, 30), [(2026, 11, d) for d in (3, 9, 30)],
                                   (2026, 11, 12)))


@state("daily:older-page")
def _older_page(board):
    # Where the days take two pages (the Pynt's rows of five), the older one, with the
    # started day; else the one page.
    _calendar((2026, 11, 30), [(2026, 11, d) for d in (3, 9, 30)], (2026, 11, 12))(board)
    s = board.app.screen
    if s.page is not None:
        s.tap(s.page.x + s.page.w // 2, s.page.y + s.page.h // 2)
        assert s.day_box(0) is not None and s.day_box(s.started) is not None


state("daily:month-boundary")(_calendar((2026, 12, 1), [(2026, 11, 20), (2026, 12, 1)],
                                        (2026, 11, 20)))
state("daily:year-boundary")(_calendar((2027, 1, 10), [(2026, 12, 31)], (2027, 1, 1)))


@state("daily:six-weeks")
def _six_weeks(board):
    # 2026-08-31 is a Monday, so its 30 days start on a Sunday: six rows of weeks (of
    # five days on the Pynt: six rows too).
    _calendar((2026, 8, 31), [(2026, 8, d) for d in range(2, 32)])(board)
    assert board.app.screen.cal.rows == 6


def _result(kind, number, other=None, today_won=False):
    def setup(board):
        app = board.app
        if other is not None:
            _two_slots(board, kind == deals.KIND_DAILY)
        if today_won:
            app.saves.stats.mark_day_won(2026, 11, 30)
        app.goto("result", moves=9999, seconds=35999,
                 code=deals.deal_code(kind, number, 4), kind=kind, number=number)
    return setup


for _name, _kind, _num in (("seed", deals.KIND_SEED, 4294967295), ("ms", deals.KIND_MS, 1000000),
                           ("daily", deals.KIND_DAILY, 20260930)):
    state("result:" + _name)(_result(_kind, _num))
    state("result:" + _name + "-other-slot")(_result(_kind, _num, other=True))
state("result:calendar")(_result(deals.KIND_DAILY, 20261130, today_won=True))


@state("result:other-slot-older-daily")
def _result_older(board):
    # An older day kept: "Daily" is today's deal, another game than the kept one's Continue.
    app = board.app
    app.start_daily(2026, 11, 28)
    move(board)
    app.switch_slot(0)
    _result(deals.KIND_MS, 1000000)(board)
    texts = [b.text for b in app.screen.buttons]
    assert "Daily" in texts and "Continue daily 28 Nov" in texts


@state("menu:two-slots-untouched")
def _menu_untouched(board):
    # Deal #617 typed in and left untouched for today's daily, begun: both are offered.
    app = board.app
    app.start_deal(deals.KIND_MS, 617, 4, True)
    app.start_daily(2026, 11, 30)
    move(board)
    app.goto("menu")
    conts = [b.text.replace("\n", " ") for b in app.screen.buttons
             if b.text.startswith("Continue")]
    assert conts == ["Continue daily 30 Nov", "Continue deal #617"]


@state("stats:empty")
def _stats_empty(board):
    board.app.goto("stats")


@state("stats:full")
def _stats_full(board):
    st = board.app.saves.stats
    most = 0x3FFFFFFF  # where stats.py caps a count (a small int on the board)
    st.played = most
    st.won = most - 1
    st.won_seconds = most
    st.won_moves = most
    st.best_seconds = 359999
    st.best_moves = 65535
    st.days_won = 65535
    board.app.goto("stats")


def _settings(cells=4, on=False, reason=None, page=0, light=True):
    def setup(board):
        app = board.app
        s = app.saves.settings
        s.cells = cells
        s.takeback = s.four_colour = s.usb_writable = on
        # The widest choices of the backlight's times: 30 s and 10 min.
        s.dim, s.dark = (0, 2) if on else (s.dim, s.dark)
        app.saves.limit_reason = lambda: reason
        if not light:
            # A board whose brightness cannot be set, as its display reports it.
            from freecell_mc.hardware.backlight import Backlight

            board.hw.display.backlight = False
            app.backlight = Backlight(board.hw.display)
        # Where the settings take more pages, page -1 is the last; else the one.
        app.goto("settings", page=page)
    return setup


def _light_page(light):
    """Bring the board to the settings page with the backlight's times, More by More."""
    def setup(board):
        _settings(light=light)(board)
        app = board.app
        while not app.screen.times:
            more = [b for b in app.screen.buttons if b.text == "More"]
            assert more, "no page has the backlight's times"
            board.tap(more[0].x + more[0].w // 2, more[0].y + more[0].h // 2)
    return setup


state("settings")(_settings())
state("settings:backlight")(_light_page(True))
state("settings:backlight-no-brightness")(_light_page(False))
state("settings:second-page")(_settings(page=1))
state("settings:last-page")(_settings(page=-1))
state("settings:last-page-drive-error")(_settings(page=-1, reason="drive error"))
state("settings:all-on")(_settings(1, True))
for _why in ("USB mode", "drive full", "drive error", "no drive"):
    state("settings:" + _why.replace(" ", "-"))(_settings(2, False, _why))


@state("howto")
def _howto(board):
    board.app.goto("howto")
    assert board.app.screen.page == 0


@state("howto:last-page")
def _howto_last(board):
    board.app.goto("howto")
    s = board.app.screen
    board.app.goto("howto", page=s.pages - 1)


@state("howto:no-words")
def _howto_missing(board, tmp=[]):  # noqa: B006  (the folder of this process's run)
    # The words' file gone from the drive: the screen says so, and how to mend it.
    import os
    import tempfile

    if not tmp:
        tmp.append(tempfile.mkdtemp(prefix="fcmc-nowords-"))
    old = os.getcwd()
    os.chdir(tmp[0])
    try:
        board.app.goto("howto")
    finally:
        os.chdir(old)


@state("datepicker:start")
def _dp_start(board):
    board.app.goto("datepicker", then="table", date=(2026, 9, 30))


@state("datepicker:daily")
def _dp_daily(board):
    board.app.goto("datepicker", then="daily", date=(2027, 9, 29))


@state("datepicker:fresh-drive")
def _dp_fresh(board):
    # Nothing known of the date: the picker starts at the image's.
    from freecell_mc.ui.screens.datepicker import DEFAULT_DATE

    board.app.saves.last_date = None  # as on a fresh drive with the clock reset
    board.app.goto("datepicker", then="table")
    assert board.app.screen.model.value() == DEFAULT_DATE


def _calibration(taps):
    def setup(board):
        app = board.app
        app.goto("settings")
        app.goto("calibration")
        s = app.screen
        for t in taps(s):
            s.tap(*t)
    return setup


def _miss(s):
    # The check's tap far off its cross, in the middle of the screen (no button there).
    return [s.targets[0], s.targets[1], (s.width // 2, s.height // 2)]


state("calibration:first")(_calibration(lambda s: []))
state("calibration:second")(_calibration(lambda s: [s.targets[0]]))
state("calibration:check")(_calibration(lambda s: list(s.targets[:2])))
state("calibration:missed")(_calibration(_miss))
state("calibration:same-taps")(_calibration(lambda s: [s.targets[0], s.targets[0]]))
state("calibration:no-fit")(_calibration(
    lambda s: [s.targets[0], (s.targets[0][0] + 3, s.targets[0][1] + 3)]))
state("calibration:saved")(_calibration(lambda s: list(s.targets)))


@state("calibration:default")
def _cal_default(board):
    _calibration(lambda s: [])(board)
    s = board.app.screen
    for b in s.buttons:
        if b.text == "Default":
            s.tap(b.x + b.w // 2, b.y + b.h // 2)
            return
    raise AssertionError("no Default button")
