# SPDX-License-Identifier: MIT
"""Each screen on real Blinka displayio with the real Saves, driven by taps on its buttons.

The App around them is a small stand-in that records where a screen sends the player;
tests/test_screens_sim.py plays the same flows through code.py on the simulator.
"""

import types

import pytest

from freecell_mc.rules import deals
from freecell_mc.ui import layout, widgets
from freecell_mc.ui.screens import models, screen_class
from freecell_mc.saves.policy import Saves
from freecell_mc.saves.settings import DARK_AFTER_S, DARK_DEFAULT, DIM_AFTER_S, DIM_DEFAULT


class Clock:
    """A clock set to a date, recording set_today."""

    def __init__(self, y, m, d):
        self.date = (y, m, d)
        self.set_calls = []

    def today(self):
        return self.date

    def set_today(self, y, m, d):
        self.date = (y, m, d)
        self.set_calls.append((y, m, d))

    def ticks_ms(self):
        return 0


class FakeApp:
    """The App as a screen sees it (ui/screens/host.py's Host), recording every action.

    Its names and call signatures are Host's (test_the_fake_app_is_the_screens_interface),
    plus `calls`, what the screens asked for, and the attributes the tests set it up with.
    """

    def __init__(self, width=320, height=240, date=(2026, 11, 30), other=None):
        self.other = other  # the slot not in play, when it holds a game
        # -- Host's values
        self.width = width
        self.height = height
        self.ppcm = layout.default_ppcm(width, height)
        self.dirty = False
        self.art = None
        self.clock = Clock(*date)
        # The game on the table (the menu offers Continue for it unless it is won).
        self.game = types.SimpleNamespace(won=lambda: False)
        self.saves = Saves([])
        self.backlight = types.SimpleNamespace(adjustable=True)  # a board that can dim
        self.calls = []

    # -- Host's actions

    def goto(self, name, **kw):
        self.calls.append(("goto", name, kw))

    def continue_game(self):
        self.calls.append(("continue",))

    def first_screen(self):
        self.calls.append(("first",))

    def answer(self, choice):
        self.calls.append(("answer", choice))

    def new_deal(self):
        self.calls.append(("new",))

    def replay(self):
        self.calls.append(("replay",))

    def start_deal(self, kind, number, cells, sure=False):
        self.calls.append(("deal", kind, number, cells))

    def start_daily(self, y, m, d):
        self.calls.append(("daily", y, m, d))

    def daily_today(self):
        self.calls.append(("daily today",))

    def switch_slot(self, slot):
        self.calls.append(("switch", slot))

    def skip_date(self):
        self.calls.append(("skip",))

    def undo_win(self):
        self.calls.append(("undo win",))

    def current_deal(self):
        if self.other == 1:  # the daily is the other slot's: a free deal is in play
            return (deals.KIND_SEED, 7, 4, deals.deal_code(deals.KIND_SEED, 7, 4))
        return (deals.KIND_DAILY, 20261130, 4, deals.deal_code(deals.KIND_DAILY, 20261130, 4))

    def other_deal(self):
        if self.other is None:
            return None
        return (deals.KIND_SEED, 7) if self.other == 0 else (deals.KIND_DAILY, 20261130)

    def other_slot_saved(self):
        return self.other

    def set_today(self, y, m, d):
        # As the App: the clock set, the date noted as the last known.
        self.clock.set_today(y, m, d)
        self.saves.note_date(y, m, d)
        self.calls.append(("today", y, m, d))

    def set_setting(self, name, value):
        setattr(self.saves.settings, name, value)
        self.calls.append(("setting", name))


def _public(cls_or_obj):
    """Return the public names of an object or class (its own and its class's)."""
    names = set(dir(cls_or_obj)) if isinstance(cls_or_obj, type) else set(vars(cls_or_obj))
    if not isinstance(cls_or_obj, type):
        names |= set(dir(type(cls_or_obj)))
    return {n for n in names if not n.startswith("_")}


def test_the_fake_app_is_the_screens_interface_and_so_is_the_app():
    """FakeApp and the App both have Host's values and its actions with Host's signatures:
    a screen tested here against the fake asks the real App for nothing it lacks."""
    import inspect

    from test_ui_harness import Board

    from freecell_mc.app import App
    from freecell_mc.ui.screens.host import Host

    actions = {n for n in _public(Host) if callable(getattr(Host, n))}
    values = _public(Host) - actions - {"QUERIES"}
    fake = FakeApp()
    # The fake is Host and no more, but its recording and the other slot it is set up with.
    assert _public(fake) - {"calls", "other"} == actions | values
    b = Board(320, 240, start=(deals.KIND_SEED, 7, 4))
    try:
        assert isinstance(b.app, App)
        for name in sorted(actions):
            # Bound: the App's own methods, and the Play's it hands the screens.
            want = inspect.signature(getattr(Host(), name))
            assert inspect.signature(getattr(fake, name)) == want, name
            assert inspect.signature(getattr(b.app, name)) == want, name
        for name in sorted(values):
            assert hasattr(b.app, name), name
            assert hasattr(fake, name), name
        for path in Host.QUERIES:
            obj, fobj = b.app, fake
            for part in path.split("."):
                obj, fobj = getattr(obj, part), getattr(fobj, part)
            assert callable(obj) and callable(fobj), path
    finally:
        b.close()


def test_the_app_is_the_tables_interface():
    """The App has what TableHost names for the table, with its signatures: moved(), and every
    query and move of the game and the clock it lists."""
    import inspect

    from test_ui_harness import Board

    from freecell_mc.ui.screens.host import Host, TableHost

    extra = {n for n in _public(TableHost) if callable(getattr(TableHost, n))} - _public(Host)
    assert extra == {"moved"}
    b = Board(320, 240, start=(deals.KIND_SEED, 7, 4))
    try:
        for name in sorted(extra):
            want = inspect.signature(getattr(TableHost(), name))
            assert inspect.signature(getattr(b.app, name)) == want, name
        for path in TableHost.QUERIES:
            obj = b.app
            for part in path.split("."):
                obj = getattr(obj, part)
            assert callable(obj), path
    finally:
        b.close()


def test_the_app_is_plays_interface():
    """The App has what PlayHost names for Play, with its signatures, and hands Play itself."""
    import inspect

    from test_ui_harness import Board

    from freecell_mc.ui.screens.host import PlayHost

    b = Board(320, 240, start=(deals.KIND_SEED, 7, 4))
    try:
        assert b.app.play.app is b.app
        for name in sorted(_public(PlayHost)):
            member = getattr(PlayHost, name)
            if callable(member):
                want = inspect.signature(getattr(PlayHost(), name))
                assert inspect.signature(getattr(b.app, name)) == want, name
            else:
                assert hasattr(b.app, name), name
    finally:
        b.close()


def make(name, app=None, **kw):
    app = app or FakeApp()
    s = screen_class(name)(app)
    app.screen = s
    s.show(**kw)
    return app, s


class Box:
    """Where a tap lands: a button's or a calendar day's x, y, w, h."""

    def __init__(self, x, y, w, h):
        self.x, self.y, self.w, self.h = x, y, w, h


def button(screen, text):
    """Return the button captioned text (a caption's line breaks read as spaces), or the
    box of the calendar's day captioned so ("28", "1 Nov"): the days are cells of a grid."""
    for b in screen.buttons:
        if b.text.replace("\n", " ") == text:
            return b
    # "Continue" finds the menu's first Continue button, whatever deal it names.
    for b in screen.buttons:
        if b.text.replace("\n", " ").startswith(text + " "):
            return b
    cal = getattr(screen, "cal", None)
    for i in range(cal.n if cal is not None else 0):
        box = screen.day_box(i)  # None for a day on another page
        if cal.label(i) == text and box is not None:
            return Box(*box)
    raise AssertionError("no button %r on %s: %s"
                         % (text, screen.name, [b.text for b in screen.buttons]))


def tap(screen, text):
    b = button(screen, text)
    screen.tap(b.x + b.w // 2, b.y + b.h // 2)


def type_keys(screen, text):
    for ch in text:
        tap(screen, ch)


# The longest question the App asks (models.loss_text with the longest names).
CONFIRM = dict(text=models.loss_text("deal #1000000", 1999, "daily 30 Sep"),
               yes="Play deal #1000000", keep="Continue daily 30 Sep")


@pytest.mark.parametrize("size", [(320, 240), (480, 320)])
@pytest.mark.parametrize("name", ["menu", "keypad", "daily", "stats", "settings", "datepicker",
                                  "calibration", "confirm"])
def test_every_screen_fits_and_has_finger_sized_buttons(name, size, fb_display):
    app, s = make(name, FakeApp(*size), **(CONFIRM if name == "confirm" else {}))
    assert s.name == name
    for b in s.buttons:
        assert 0 <= b.x and b.x + b.w <= size[0] and 0 <= b.y and b.y + b.h <= size[1], b.text
        # 7 mm of the panel is what a fingertip hits reliably (tests/test_sizes.py measures
        # every state of every screen on the three boards).
        assert b.h >= s.m.target, (b.text, b.w, b.h)
        # A key drawn without a caption (the keypad's digits) is measured by test_sizes.py.
        assert b.caption is None or widgets.text_width(b.text, b.caption.scale) <= b.w, b.text
    # No two buttons overlap: a tap can only ever mean one thing.
    bs = s.buttons
    for i in range(len(bs)):
        for j in range(i + 1, len(bs)):
            a, c = bs[i], bs[j]
            assert (a.x + a.w <= c.x or c.x + c.w <= a.x or a.y + a.h <= c.y
                    or c.y + c.h <= a.y), (a.text, c.text)
    if size == (320, 240):
        fb_display.root_group = s.group
        fb_display.refresh()
    s.close()


def test_menu_buttons_lead_where_they_say(fb_display):
    app, s = make("menu")
    assert s.deal.text == "Daily 30 Nov   code 24-20261130-4"
    for text, call in (
        ("Continue", ("continue",)),
        ("New deal", ("new",)),
        ("Replay", ("replay",)),
        ("Daily deal", ("goto", "daily", {})),
        ("Enter code", ("goto", "keypad", {})),
        ("Statistics", ("goto", "stats", {})),
        ("Settings", ("goto", "settings", {})),
    ):
        app.calls.clear()
        tap(s, text)
        assert app.calls == [call], text
        assert app.dirty
    app.calls.clear()
    s.key("esc")
    assert app.calls == [("continue",)]
    # A tap between buttons does nothing.
    app.calls.clear()
    s.tap(0, 0)
    assert app.calls == []


@pytest.mark.parametrize("size", [(320, 240), (480, 320)])
def test_menu_continue_buttons_name_their_deals(size):
    app, s = make("menu", FakeApp(*size))
    assert s.buttons[0].text == "Continue daily 30 Nov"
    app, s = make("menu", FakeApp(*size, other=0))
    assert [b.text for b in s.buttons[:2]] == ["Continue\ndaily 30 Nov", "Continue\nfree deal"]
    assert s.buttons[0].caption.scale == s.buttons[1].caption.scale
    tap(s, "Continue free deal")
    assert app.calls == [("switch", 0)]


@pytest.mark.parametrize("size", [(320, 240), (480, 320)])
def test_confirm_fits_its_text_and_answers(size, fb_display):
    app, s = make("confirm", FakeApp(*size), **CONFIRM)
    lines = s.text.text.split("\n")
    assert " ".join(lines) == CONFIRM["text"]
    scale = s.text.scale
    assert max(widgets.text_width(t, scale) for t in lines) <= size[0] - 2 * s.m.margin
    # The text ends above the first answer (Back may stand in the title's row).
    top = min(b.y for b in (s.yes, s.keep))
    assert s.text.group.y + widgets.text_height(s.text.text, scale) <= top
    for text, answer in ((CONFIRM["yes"], "yes"), (CONFIRM["keep"], "keep"), ("Back", "back")):
        app.calls.clear()
        tap(s, text)
        assert app.calls == [("answer", answer)]
    app.calls.clear()
    s.key("enter")
    s.key("esc")
    assert app.calls == [("answer", "yes"), ("answer", "back")]
    # From the table there is no "back" besides continuing: the row is gone.
    s.show(back=False, **CONFIRM)
    b = button(s, "Back")
    assert b.hidden and s.button_at(b.x + 5, b.y + 5) is None


def test_keypad_refuses_tomorrows_daily_and_keeps_the_code():
    app, s = make("keypad")
    code = deals.deal_code(deals.KIND_DAILY, 20261201, 4)
    type_keys(s, code)
    tap(s, "OK")
    assert app.calls == []
    assert "opens on 1 Dec 2026" in s.message.text.replace("\n", " ")
    assert s.entry.text == code
    assert s.resume() == {"text": code}
    # With the clock reset, the last date the game knew decides.
    app, s = make("keypad", FakeApp(date=(2000, 1, 1)))
    app.saves.last_date = (2026, 12, 1)
    type_keys(s, code)
    tap(s, "OK")
    assert app.calls == [("deal", deals.KIND_DAILY, 20261201, 4)]


def test_menu_daily_with_an_unset_clock_asks_for_the_date_first():
    app, s = make("menu", FakeApp(date=(2000, 1, 1)))
    tap(s, "Daily deal")
    assert app.calls == [("goto", "datepicker", {"then": "daily"})]


def test_keypad_microsoft_number():
    app, s = make("keypad")
    app.saves.settings.cells = 3
    type_keys(s, "11982")
    assert s.field.text == "11982_"
    assert s.message.text == "Deal #11982"
    tap(s, "OK")
    assert app.calls == [("deal", deals.KIND_MS, 11982, 3)]


def test_keypad_good_code_restores_deal_and_cells():
    app, s = make("keypad")
    code = deals.deal_code(deals.KIND_SEED, 123456789, 2)
    type_keys(s, code)
    assert s.field.text == code + "_"
    tap(s, "OK")
    assert app.calls == [("deal", deals.KIND_SEED, 123456789, 2)]


def test_keypad_bad_code_says_why_and_loses_nothing():
    app, s = make("keypad")
    code = deals.deal_code(deals.KIND_DAILY, 20261130, 4)
    bad = code[:3] + str((int(code[3]) + 1) % 10) + code[4:]
    type_keys(s, bad)
    tap(s, "OK")
    assert app.calls == []
    assert "mistyped" in s.message.text.replace("\n", " ")
    assert not s.error_bg.hidden
    assert s.entry.text == bad  # nothing typed is lost
    # Fixing the digit clears the error and plays the deal.
    for _ in range(len(bad) - 3):
        tap(s, "Del")
    assert s.error_bg.hidden
    type_keys(s, code[3:])
    tap(s, "OK")
    assert app.calls == [("deal", deals.KIND_DAILY, 20261130, 4)]


def test_keypad_out_of_range_number_and_keys():
    app, s = make("keypad")
    for k in "1000001":
        s.key(k)
    s.key("enter")
    assert app.calls == []
    assert "1,000,000" in s.message.text.replace("\n", " ")
    s.key("back")
    assert s.entry.text == "100000"
    tap(s, "Clear")
    assert s.entry.text == ""
    s.key("esc")
    assert app.calls == [("goto", "menu", {})]


def shown(color):
    """Return the (r, g, b) a 0xRRGGBB colour shows as on the RGB565 panel (display.pixel)."""
    v = (color >> 19 & 31) << 11 | (color >> 10 & 63) << 5 | (color >> 3 & 31)
    return ((v >> 11) * 255 // 31, ((v >> 5) & 63) * 255 // 63, (v & 31) * 255 // 31)


def test_daily_calendar_marks_won_days_and_plays_the_tapped_day(fb_display):
    app = FakeApp()
    for d in (3, 17, 30):
        app.saves.stats.mark_day_won(2026, 11, d)
    app.saves.stats.mark_day_won(2026, 10, 31)  # outside the 30 days: not shown
    app, s = make("daily", app)
    cal = s.cal
    assert (cal.date(0), cal.date(29)) == ((2026, 11, 1), (2026, 11, 30))
    assert cal.n == 30
    won = [cal.date(i)[2] for i in range(30) if s.won[i]]
    assert won == [3, 17, 30]
    assert s.count.text == "3 won"
    # Every day is open: every cell can be tapped, all of it, and the gaps are no day's.
    for i in range(30):
        x, y, w, h = s.day_box(i)
        assert s.day_at(x, y) == s.day_at(x + w - 1, y + h - 1) == i
        assert s.day_at(x + w, y) == s.day_at(x, y + h) == -1
    tap(s, "12")
    assert app.calls == [("daily", 2026, 11, 12)]
    app.calls.clear()
    tap(s, "1 Nov")
    assert app.calls == [("daily", 2026, 11, 1)]
    app.calls.clear()
    tap(s, "Today")
    assert app.calls == [("daily", 2026, 11, 30)]
    fb_display.root_group = s.group
    fb_display.refresh()
    # The marks are colours on the screen, not just states: a won day is drawn green, an
    # open one blue, today in gold; the gap between two days is felt.
    x, y, w, h = s.day_box(29)  # today, won
    x2, y2 = s.day_box(28)[:2]  # yesterday, open
    assert fb_display.pixel(x + 4, y + h // 2) == shown(widgets.FILL_ON)
    assert fb_display.pixel(x2 + 4, y2 + h // 2) == shown(widgets.FILL)
    assert fb_display.pixel(x, y + h // 2) == shown(widgets.GOLD)
    assert fb_display.pixel(x2, y2 + h // 2) == shown(widgets.BORDER)
    assert fb_display.pixel(x + w, y + h // 2) == shown(widgets.BG)


def test_daily_calendar_on_a_dense_panel_turns_pages_of_rows_of_five(fb_display):
    # The Pynt's panel: seven days of 7 mm (47 px) do not fit across 320 px, so the days
    # go in rows of five, three rows a page, the newest page first.
    app = FakeApp()
    app.ppcm = layout.panel_ppcm("pyportal_pynt", 320, 240)
    for d in (3, 17):
        app.saves.stats.mark_day_won(2026, 11, d)
    app, s = make("daily", app)
    need = layout.mm_px(layout.TARGET_MM10, app.ppcm)
    assert (s.cal.cols, s.page_rows) == (5, 3)

    def page():
        return [i for i in range(30) if s.day_box(i) is not None]

    def colour(i):
        x, y, w, h = s.day_box(i)
        fb_display.root_group = s.group
        fb_display.refresh()
        return fb_display.pixel(x + 4, y + h // 2)

    assert page() == list(range(15, 30))
    assert s.months.text == "Nov 2026"
    assert colour(16) == shown(widgets.FILL_ON) and colour(17) == shown(widgets.FILL)  # 17, 18 Nov
    for i in page():
        x, y, w, h = s.day_box(i)
        assert w >= need and h >= need
        assert s.day_at(x, y) == s.day_at(x + w - 1, y + h - 1) == i
    with pytest.raises(AssertionError):
        button(s, "3")  # on the other page: no cell to tap
    tap(s, "Older")
    # The older page: the same cells now hold 1..15 Nov, won and open as they are.
    assert page() == list(range(15))
    assert colour(2) == shown(widgets.FILL_ON) and colour(3) == shown(widgets.FILL)  # 3, 4 Nov
    assert [b.text for b in s.buttons if b.text in ("Older", "Newer")] == ["Newer"]
    tap(s, "3")
    tap(s, "Today")
    assert app.calls == [("daily", 2026, 11, 3), ("daily", 2026, 11, 30)]
    tap(s, "Newer")
    assert page() == list(range(15, 30))
    assert colour(16) == shown(widgets.FILL_ON)
    # Over a month's end the page names both months.
    app2 = FakeApp(date=(2026, 12, 1))
    app2.ppcm = app.ppcm
    app2, s2 = make("daily", app2)
    assert s2.months.text == "Nov-Dec 2026"
    # Over a year's end each month keeps its own year, on one line or two.
    app3 = FakeApp(date=(2027, 1, 10))
    app3.ppcm = app.ppcm
    app3, s3 = make("daily", app3)
    assert s3.months.text in ("Dec 2026 - Jan 2027", "Dec 2026\nJan 2027")


def test_daily_shows_no_streak():
    app, s = make("daily")
    texts = [b.text.lower() for b in s.buttons]
    for item in s.group:
        t = getattr(item, "text", None)
        if isinstance(t, str):
            texts.append(t.lower())
    assert not any("streak" in t for t in texts)


def test_stats_figures():
    app = FakeApp()
    st = app.saves.stats
    for _ in range(4):
        st.record_start()
    st.record_win(300, 100)
    st.record_win(200, 120)
    st.mark_day_won(2026, 11, 30)
    app, s = make("stats", app)
    vals = [t.text for t in s.values]
    assert vals == ["4", "2", "50%", "3:20", "4:10", "1", "100", "110"]
    app2, s2 = make("stats")
    assert [t.text for t in s2.values] == ["0", "0", "-", "-", "-", "0", "-", "-"]
    tap(s2, "Back")
    assert app2.calls == [("goto", "menu", {})]


def test_settings_change_cell_count_and_toggles():
    app, s = make("settings")
    st = app.saves.settings
    assert st.cells == 4
    tap(s, "2")
    assert st.cells == 2
    assert app.calls == [("setting", "cells")]
    assert [b.state for b in s.cell_buttons] == [widgets.OFF, widgets.ON, widgets.OFF, widgets.OFF]
    take, four, usb = s.toggles
    s.tap(take.x + 2, take.y + 2)
    assert st.takeback and take.text == "On"
    s.tap(four.x + 2, four.y + 2)
    assert st.four_colour
    s.tap(usb.x + 2, usb.y + 2)
    assert st.usb_writable and usb.text == "On"
    s.tap(usb.x + 2, usb.y + 2)
    assert not st.usb_writable and usb.text == "Off"
    app.calls.clear()
    tap(s, "Calibrate")
    assert app.calls == [("goto", "calibration", {})]


def test_settings_cycle_the_backlight_times_round_their_choices():
    app, s = make("settings", page=1)  # 320x240: the times are on the second page
    st = app.saves.settings
    dim, dark = s.times
    assert (dim.text, dark.text) == ("1 min", "5 min")  # the defaults
    seen = []
    for _ in range(5):
        s.tap(dim.x + 2, dim.y + 2)
        seen.append((dim.text, DIM_AFTER_S[st.dim]))
    assert seen == [("2 min", 120), ("5 min", 300), ("Never", 0), ("30 s", 30), ("1 min", 60)]
    seen = []
    for _ in range(4):
        s.tap(dark.x + 2, dark.y + 2)
        seen.append((dark.text, DARK_AFTER_S[st.dark]))
    assert seen == [("10 min", 600), ("Never", 0), ("2 min", 120), ("5 min", 300)]
    assert app.calls == [("setting", "dim")] * 5 + [("setting", "dark")] * 4  # each at once


def test_settings_say_where_the_board_has_no_brightness_control_and_offer_nothing():
    app = FakeApp()
    app.backlight.adjustable = False
    app, s = make("settings", app, page=1)
    assert s.light_note.text.replace("\n", " ") == "no brightness control on this board"
    for b in s.times:
        assert b.text == "-" and not b.enabled
        s.tap(b.x + b.w // 2, b.y + b.h // 2)
    st = app.saves.settings
    assert (st.dim, st.dark) == (DIM_DEFAULT, DARK_DEFAULT) and app.calls == []


def test_datepicker_starts_from_the_last_known_date_and_sets_the_clock():
    app = FakeApp(date=(2000, 1, 1))
    app.saves.last_date = (2027, 1, 27)
    app, s = make("datepicker", app, then="daily")
    assert [t.text for t in s.values] == ["2027", "Jan", "27"]
    pluses = [b for b in s.buttons if b.text == "+"]
    for _ in range(3):
        s.tap(pluses[2].x + 5, pluses[2].y + 5)
    assert s.long.text == "Saturday 30 January 2027"
    tap(s, "Set the date")
    # The player's date: the App sets the clock, vouches for the date and saves it.
    assert app.calls == [("today", 2027, 1, 30), ("goto", "daily", {})]


def test_datepicker_starts_from_the_images_date_when_the_last_known_is_older():
    from freecell_mc.ui.screens.datepicker import DEFAULT_DATE

    assert DEFAULT_DATE > (2026, 1, 1)  # no longer the first day the game was planned for
    app = FakeApp(date=(2000, 1, 1))
    app.saves.last_date = (2026, 3, 2)  # set long before this image was built
    app, s = make("datepicker", app)
    assert s.model.value() == DEFAULT_DATE


def test_datepicker_default_goes_back_to_the_table():
    from freecell_mc.dates import add_days
    from freecell_mc.ui.screens.datepicker import DEFAULT_DATE

    app, s = make("datepicker", FakeApp(date=(2000, 1, 1)))
    assert s.model.value() == DEFAULT_DATE  # nothing known: the image's date
    minus = [b for b in s.buttons if b.text == "-"]
    s.tap(minus[2].x + 5, minus[2].y + 5)  # a day back
    day_before = add_days(*DEFAULT_DATE, -1)
    assert s.model.value() == day_before
    s.key("enter")
    assert app.calls == [("today",) + day_before, ("continue",)]


def test_datepicker_can_be_skipped_with_a_button():
    app, s = make("datepicker", FakeApp(date=(2000, 1, 1)))
    tap(s, "Free deals only")
    assert app.calls == [("skip",)]
    assert app.clock.set_calls == []
    app, s = make("datepicker", FakeApp(date=(2000, 1, 1)), then="daily")
    tap(s, "Back")
    s.key("esc")
    assert app.calls == [("goto", "menu", {}), ("goto", "menu", {})]
    assert app.clock.set_calls == []


def _tap_as_panel(s, true_cal, x, y):
    """Tap where the finger is (x, y) on a panel whose truth is true_cal, as the driver maps it."""
    (a, b), (c, d) = true_cal
    (xa, xb), (ya, yb) = s._current()
    rx = models.screen_to_raw(x, a, b, s.width)
    ry = models.screen_to_raw(y, c, d, s.height)
    s.tap(models.raw_to_screen(rx, xa, xb, s.width), models.raw_to_screen(ry, ya, yb, s.height))


def test_calibration_stores_the_players_mapping():
    app, s = make("calibration")
    truth = ((7000, 61000), (4000, 59000))  # this panel reads differently from the default
    for x, y in s.targets:
        _tap_as_panel(s, truth, x, y)
    cal = app.saves.settings.calibration
    assert app.calls == [("setting", "calibration")]
    for got, want in zip(cal, truth):
        assert abs(got[0] - want[0]) < 400 and abs(got[1] - want[1]) < 400
    assert s.info.text.startswith("Saved")


def test_calibration_check_tap_that_misses_starts_again():
    app, s = make("calibration")
    truth = models.DEFAULT_CALIBRATION
    _tap_as_panel(s, truth, *s.targets[0])
    _tap_as_panel(s, truth, *s.targets[1])
    _tap_as_panel(s, truth, s.targets[2][0] - 60, s.targets[2][1] + 50)
    assert app.calls == []
    assert s.step == 0 and "missed" in s.info.text
    tap(s, "Default")
    assert app.saves.settings.calibration == models.DEFAULT_CALIBRATION
    tap(s, "Back")
    assert app.calls[-1] == ("goto", "settings", {"touch": True})


@pytest.mark.parametrize("board_name", ["pyportal", "pynt", "titano"])
def test_calibration_keeps_its_count_on_one_line(board_name):
    # On the real App at each board's panel: the instructions, a miss's message and the
    # Default's, each ends with its whole count, "(1 of 3)", never "(1 of" over "3)".
    from screen_states import STATES, PanelBoard

    for name, count in (("calibration:first", "(1 of 3)"), ("calibration:second", "(2 of 3)"),
                        ("calibration:check", "(3 of 3)"), ("calibration:missed", "(1 of 3)"),
                        ("calibration:default", "(1 of 3)")):
        b = PanelBoard(board_name)
        try:
            STATES[name](b)
            s = b.app.screen
            lines = s.info.text.split("\n")
        finally:
            b.close()
        assert lines[-1].endswith(" " + count) or lines[-1] == count, (name, lines)
        assert all(len(line) <= s.cols for line in lines), (name, lines)
        assert "".join(lines).count("(") == 1, (name, lines)
