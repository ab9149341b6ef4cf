# SPDX-License-Identifier: MIT
"""The App: the main loop and the way between the screens, on top of the game in play.

One poll() reads the touch panel once, turns readings into taps, hands taps and keys to
the active screen, advances its timers, lets the saves commit when due, and refreshes the
display once, only if something changed (auto-refresh is off). Every screen, the table too,
is built when entered and dropped when left; the table's card art is kept. The deal in
play, its slot, saves and statistics are play.py's: the App holds one Play and shows what
it does.
"""

import displayio

from freecell_mc.compat import const
from freecell_mc.dates import plausible, ticks_diff
from freecell_mc.hardware.backlight import DARK, Backlight
from freecell_mc.hardware.taps import Taps
from freecell_mc.play import Play, open_saves
from freecell_mc.rules import deals
from freecell_mc.saves.settings import DARK_AFTER_S, DIM_AFTER_S
from freecell_mc.ui.layout import app_ppcm

_MAX_ELAPSED_MS = const(0x3FFFFFFF)
# The quiet spell that stops the game's clock where the screen never dims nor goes dark
# (Settings' "never" twice): five minutes untouched is a board put down.
_PUT_DOWN_MS = const(300000)
# The save file's erase ahead (up to about 100 ms) waits until nobody has touched the screen
# for this long: the panel keeps no taps, so a tap begun and ended while the board erases
# would be lost; a pause this long is a player thinking, not tapping.
_QUIET_MS = const(1000)
# The main loop's pause between polls, and the longer one while the screen is dark: the
# board idles in time.sleep (less current), and a finger, down for a tenth of a second or
# more, is still seen.
POLL_S = 0.005
DARK_POLL_S = 0.05


def _forget(package, names):
    """Drop the modules package.NAME of names, so their code leaves the heap (board only).

    CPython keeps them: there the heap is no concern and tools hold on to their classes.
    """
    import sys

    if sys.implementation.name == "cpython":
        return
    pkg = sys.modules.get(package)
    for mod in names:
        full = package + "." + mod
        if full in sys.modules:
            del sys.modules[full]
        if pkg is not None and mod in pkg.__dict__:
            delattr(pkg, mod)


def _forget_screen(name):
    """Drop a left screen's module, and models, which holds every screen's logic and no state."""
    _forget("freecell_mc.ui.screens", (name, "models"))


class App:
    """FreeCell MC on one piece of hardware (docs/architecture.md, "The hardware boundary").

    A screen is handed the App and uses only what ui/screens/host.py's Host names: the
    values it reads (the display's size and density, the saves, the clock, ...) and the
    actions it asks for (another screen, a deal, a setting, the date).
    """

    current = None  # the running App, for host tools

    def __init__(self, hw):
        """Take the hardware, load the saves and show the table (or ask for the date)."""
        App.current = self
        self.display = hw.display
        self.width = hw.display.width
        self.height = hw.display.height
        self.keys = getattr(hw, "keys", None)
        self.dirty = True
        self.taps = Taps()
        self.backlight = Backlight(hw.display)
        self._waking = False  # this press found the screen dimmed or dark: it only wakes it
        self._polling = False  # inside poll()'s tap, key or tick: screen changes wait
        self._goto_due = None  # (name, kw) of the screen to show when they have returned
        self._enter_due = None  # (name, kw) of the screen the next poll builds
        self.root = displayio.Group()
        self.screen = None
        self.other = None
        self._pending = None  # the deal waiting for the player's answer (see ask)
        self._back = ("table", {})
        self.hw = hw
        self.clock, self.touch = hw.clock, hw.touch
        self.saves = saves = open_saves(hw)
        self.message = saves.load()  # told at the start (the notice screen), or None
        # The player's calibration is in the saves, so the hardware learns it only now.
        self._apply_calibration()
        self.ppcm = app_ppcm(self)  # the panel's density, for the screens' sizes
        self._last_ms = self.clock.ticks_ms()
        self.play = p = Play(self, saves, self.clock, getattr(hw, "start", None))
        self.game = p.game  # the one Game, for life
        # What the screens (ui/screens/host.py) and the table ask of the deal in play is
        # Play's to do: its methods, bound here, not wrapped (a wrapper costs a function).
        self.new_deal = p.new_deal
        self.replay = p.replay
        self.start_deal = p.start_deal
        self.start_daily = p.start_daily
        self.daily_today = p.daily_today
        self.switch_slot = p.switch_slot
        self.skip_date = p.skip_date
        self.undo_win = p.undo_win
        self.current_deal = p.current_deal
        self.other_deal = p.other_deal
        self.other_slot_saved = p.other_slot_saved
        self.set_today = p.set_today
        self.moved = p.moved
        self._backlight_times()
        self.art = None  # the table's card art, kept while the table is not
        # The table screen while it is shown (None on the others): built by goto("table"),
        # so a start on the date picker or a result does not hold it too.
        self.table = None
        self.display.root_group = self.root
        if self.message is not None:
            # What happened to the saves is told first, once; its OK goes on from here.
            self.goto("notice", text=self.message)
        else:
            self.first_screen()

    def first_screen(self):
        """Show where a start goes: the date picker if the clock is unset, else the game."""
        self.message = None  # told, if there was anything to tell
        today = self.clock.today()
        if plausible(today[0]):
            if not self.play.vouch_date(today[0], today[1], today[2], False):
                # The clock jumped far ahead of the last confirmed date: ask whether it is
                # right before a daily win can move the days won that far.
                self.goto("datepicker", then="table", date=today, check=True)
            elif self.game.won():
                # The game kept in the slot was won: greet the player with its result and
                # the ways on (new deal, replay, daily), not with an empty table.
                self._show_result()
            else:
                self.goto("table")
        else:
            self.goto("datepicker", then="table")

    # -- the deal shown -------------------------------------------------------------

    def show_deal(self):
        """Show the table with the game as it now is (a won game: its result screen)."""
        if self.game.won():
            # A won daily or free game taken up again: its result and the ways on, as at
            # a start, not a table with nothing left to play.
            self._show_result()
        elif self.table is not None and self.screen is self.table:
            self.table.redraw()
            self.dirty = True
        else:
            self.goto("table")

    def _show_result(self):
        """Show the result screen of the won game in play."""
        self.goto("result", **self._result_kw())

    def _result_kw(self):
        """Return what the result screen shows of the game in play: moves, time, the deal."""
        kind, number, _, code = self.play.current_deal()
        return {"moves": self.game.moves, "seconds": self.play.elapsed_ms // 1000,
                "code": code, "kind": kind, "number": number}

    def show_result_next(self):
        """Show the result screen of the game just won once poll()'s handler has returned.

        Built eight frames down the winning tap or finish step, the result screen overflowed
        the board's Python stack: poll() lets go of the table, the next poll builds it.
        """
        self._goto_due = ("result", self._result_kw())

    def ask(self, kind, number, cells, slot):
        """Ask before the unfinished game in slot gives way to deal kind/number."""
        from freecell_mc.ui.screens import models

        self._pending = (kind, number, cells, slot)
        scr = self.screen
        # A "no" returns the player to where the question came from, as it was.
        resume = getattr(scr, "resume", None)
        self._back = (scr.name if scr is not None else "table", resume() if resume else {})
        p = self.play
        if slot == p.slot:
            lost_kind, lost_number, moves = p.kind, p.number, self.game.moves
        else:
            s = self.saves.slot(slot)
            lost_kind, lost_number, moves = s.kind, s.number, s.moves
        if kind == lost_kind and number == lost_number:
            other = None
            yes = "Replay from the start"
        else:
            # A free deal has no name to know it by: it is simply a new one.
            other = "a new free deal" if kind == deals.KIND_SEED else models.deal_name(kind, number)
            yes = "Play " + other
        lost = models.deal_name(lost_kind, lost_number)
        self.goto(
            "confirm",
            text=models.loss_text(lost, moves, other),
            short=models.loss_short(lost, moves, other),
            yes=yes,
            keep=models.continue_label(lost_kind, lost_number),
            back=self._back[0] not in ("table", "result"),
        )

    def answer(self, choice):
        """Act on the answer to _ask: "yes" gives the game up, "keep" continues it, else back."""
        pending = self._pending
        self._pending = None
        if pending is None:
            self.show_deal()
            return
        kind, number, cells, slot = pending
        if choice == "yes":
            self.start_deal(kind, number, cells, True)
        elif choice == "keep":
            if slot == self.play.slot:
                self.show_deal()
            else:
                self.switch_slot(slot)
        else:
            name, kw = self._back
            if name == "table" or name == "result":
                self.show_deal()
            else:
                self.goto(name, **kw)

    def continue_game(self):
        """Back to the table with the active slot's game (a won one: its result)."""
        self.goto("table")

    def set_setting(self, name, value):
        """Change the setting called name to value and apply it: colours, take-back, touch
        calibration, the backlight's times (cells: the next deal); saved at once."""
        st = self.saves.settings
        setattr(st, name, value)
        if self.art is not None:  # None until a table was built; the next one reads st
            self.art.set_four_colour(st.four_colour)
        self.game.takeback = bool(st.takeback)
        self._apply_calibration()
        self._backlight_times()
        self.saves.commit(self.clock.ticks_ms(), True)
        self.dirty = True

    def _apply_calibration(self):
        """Hand the saved touch calibration to the hardware and take its touch panel."""
        cal = self.saves.settings.calibration
        setcal = getattr(self.hw, "set_calibration", None)
        if setcal is not None and cal:
            setcal(cal)
            self.touch = self.hw.touch

    # The game in play as host tools and tests read it through the App (Play's, read only).

    @property
    def slot(self):
        """The slot in play (record.SLOT_FREE or SLOT_DAILY)."""
        return self.play.slot

    @property
    def kind(self):
        """The kind of the deal in play (deals.KIND_*)."""
        return self.play.kind

    @property
    def number(self):
        """The number of the deal in play."""
        return self.play.number

    @property
    def elapsed_ms(self):
        """The time the game in play has been played."""
        return self.play.elapsed_ms

    def _backlight_times(self):
        """Give the backlight the quiet spells the settings ask for."""
        st = self.saves.settings
        self.backlight.set_times(DIM_AFTER_S[st.dim], DARK_AFTER_S[st.dark])

    # -- screens ---------------------------------------------------------------------

    def goto(self, name, **kw):
        """Show the screen called name (the table, or a screen module built on entry).

        A won game never shows as a table with nothing left to play: whatever path leads
        back to it (Continue, the date picker, a slot switch, a start) shows its result.

        Asked for from a tap, a key or a timer, the old screen is let go of when that has
        returned, and the new one is built at the start of the next poll (see poll): built
        down there, a screen's build (with the labels it had then) ran CircuitPython 9's
        1,536-byte Python stack out (docs/memory.md).
        """
        if name == "table" and self.game.won():
            self._show_result()
            return
        if self._polling:
            self._goto_due = (name, kw)
            return
        # Called from outside a poll (the start, host tools), both halves at once; one
        # frame each below this one, the table's build being the deepest path of the game.
        self._leave(name)
        self._enter(name, kw)

    def _leave(self, name):
        """Let go of the active screen (and the table, unless name is the table)."""
        if self.table is not None and self.screen is self.table and name != "table":
            self.table.close()
            # The slot last took the time at the last move: the thinking since counts too.
            self.play.save()
            self.saves.commit(self.clock.ticks_ms(), True)
            # Its display objects and its modules' code give way to the next screen (what
            # they hold: docs/memory.md, "The table's display objects"); the card art
            # stays, so coming back builds tile grids and texts, not the art.
            self.table = None
            _forget("freecell_mc.ui", ("table", "tableview", "narrow"))
        # The old screen lets go of everything before the new one is built, so the two are
        # never on the heap together (docs/memory.md, "peak during a screen change"): the
        # display shows the empty root until then (nothing is refreshed in between).
        self.display.root_group = self.root
        self.screen = None
        if self.other is not None:
            gone = self.other.name
            self.other.close()
            self.other = None
            _forget_screen(gone)

    def _enter(self, name, kw):
        """Build the screen called name (the root is empty) and show it with kw."""
        import gc
        import sys

        if sys.implementation.name != "cpython":
            # The old screen is garbage now: collected first, the new one is built from the
            # bottom of the heap up, in one piece, rather than into the gaps a collection in
            # the middle of its build would leave. Without it a heap 2.5 KB above the
            # smallest that runs a session could fail on the Titano (docs/memory.md,
            # "Fragmentation at a screen change").
            gc.collect()
        if name == "table":
            if self.table is None:
                # Built right here, not in a helper: the deepest path of the game.
                from freecell_mc.ui.table import Table

                self.table = Table(self, self.saves.settings.four_colour, self.art)
                self.art = self.table.art
                # The art is drawn once: the glyphs and the drawing code go (board only).
                _forget("freecell_mc.ui", ("cardfaces",))
            screen = self.table
            screen.show(**kw)
        else:
            from freecell_mc.ui.screens import screen_class

            screen = screen_class(name)(self)
            self.other = screen
            screen.show(**kw)
        # The screen's own group becomes the display's root: displayio then draws the whole
        # screen once, where a group appended to the root had each of its layers' areas
        # drawn one by one, overlaps again and again (about ten screens' worth of pixels
        # for the menu; docs/speed.md).
        self.display.root_group = screen.group
        self.screen = screen
        self.taps.reset()
        self.dirty = True

    def key(self, k):
        """Hand a key to the active screen."""
        self.screen.key(k)

    # -- the loop --------------------------------------------------------------------

    def poll(self):
        """Run one iteration: touch, keys, timers, saves, and at most one refresh."""
        due = self._enter_due
        if due is not None:
            # The second half of a screen change: the last poll let go of the old screen.
            self._enter_due = None
            self._enter(due[0], due[1])
        now = self.clock.ticks_ms()
        dt = ticks_diff(now, self._last_ms)
        self._last_ms = now
        g = self.game
        bl = self.backlight
        if self.screen is self.table and g.moves and not g.won() and 0 < dt and bl.state != DARK:
            # Elapsed time is play time at the table, recorded silently. A quiet spell as
            # long as the one that dims the screen (whether this board can dim or not) is
            # the board put down, not play: the clock stops, and gives back what it had
            # counted of the spell, from the last touch on.
            # (The backlight's own times, read here rather than through a method of its
            # own: every name costs the board's interned-string pools.)
            quiet = bl._dim_ms or bl._dark_ms or _PUT_DOWN_MS
            q = ticks_diff(now, bl.since)
            p = self.play
            ms = p.elapsed_ms
            if q < quiet:
                if ms < _MAX_ELAPSED_MS:
                    ms += dt
            elif q - dt < quiet:
                ms = max(0, ms - (q - dt))
            if ms != p.elapsed_ms:
                p.elapsed_ms = ms
                # Into the record as it runs: thinking time survives a power cut too.
                self.saves.set_elapsed(p.slot, ms // 1000, ms % 1000)
        reading = self.touch.touch_point
        taps = self.taps
        tap = taps.feed(reading, now)
        pressed = not taps.idle()
        if pressed and bl.touched(now):
            self._waking = True
        if self._waking:
            # The whole press that woke the screen, through its release, does nothing else.
            tap = None
            self._waking = pressed
        self._polling = True
        if tap is not None:
            self.screen.tap(tap[0], tap[1])
        keys = self.keys
        if keys is not None:
            k = keys.read()
            if k is not None and not bl.touched(now):
                self.key(k)
        if bl.quiet(now):
            self._going_dark(now)
        self.screen.tick(now)
        self._polling = False
        due = self._goto_due
        if due is not None:
            self._goto_due = None
            # A screen change takes two polls: this one lets go of the old screen, the next
            # builds the new one. Built here, it met a collector that found words left on
            # the stacks of the frames that had just taken the old screen apart, still
            # pointing into it: much of it stayed alive through the build, and the heap a
            # change needed was the old screen's and the new one's (docs/memory.md, "A
            # screen change takes two polls").
            # Nothing is refreshed in between: the panel shows the old screen until the
            # new one is drawn.
            self._leave(due[0])
            self._enter_due = due
            return
        saves = self.saves
        saves.commit(now)
        if self.dirty:
            self.dirty = False
            self.display.refresh()
        elif reading is None and not pressed and ticks_diff(now, bl.since) >= _QUIET_MS:
            # Nobody touches the screen and nothing was drawn: erase ahead now, rather than
            # hold up the save that enters the next group (docs/saves.md).
            saves.erase_ahead()

    def _going_dark(self, now):
        """Save everything now: the screen goes dark, and the player may not come back."""
        if self.table is not None and self.screen is self.table:
            self.play.save()
        self.saves.commit(now, True)

    def run(self):
        """Poll forever (the board's main loop)."""
        try:
            import time

            sleep = time.sleep
        except ImportError:
            sleep = None
        bl = self.backlight
        self.poll()
        # The start is over: a fault from now on is not one at start (hardware/carry.py).
        from freecell_mc.hardware import carry

        carry.clear()
        # What only the start needed: the time carried, the chip's driver where none
        # answered, the saves' reading (docs/memory.md, "Code the start alone needs").
        _forget("freecell_mc.hardware", ("carry", "rtcchip"))
        _forget("freecell_mc.saves", ("loading",))
        while True:
            if sleep is not None:
                sleep(DARK_POLL_S if bl.state == DARK else POLL_S)
            self.poll()


def start(hw):
    """Run the game on hw until power-off or an exception."""
    App(hw).run()


def main():
    """Build the board's hardware and run the game until power-off (code.py's main).

    An exception that reaches here, a MemoryError at the heap's edge among them, shows one
    calm screen and resets the board, which continues the newest save (source.fault);
    Ctrl-C resets into safe mode. code.py does not end while its end would close a save
    file written through (that close rewrites the file's folder entry): but CircuitPython's
    reload (ReloadException: a file written to CIRCUITPY over USB, in USB-update mode) ends
    it when the save file was never opened for writing, so code.py starts again once the
    computer's writes are done, as CircuitPython means it to, rather than the board
    resetting under the computer's copy. The simulator's board (RAISE_FAULTS) has all but
    Ctrl-C raised: its tests want the traceback, unless they play the board's faults.
    """
    from freecell_mc.hardware import carry

    carry.begin()
    del carry  # the module goes after the start (App.run): nothing here may hold it
    hw = None
    try:
        from freecell_mc.hardware.device import build

        hw = build()
        # In a frame of its own: a frame's stale stack slots would hold the App through
        # the collection that makes room for the calm screen.
        start(hw)
    except BaseException as e:  # Ctrl-C and a reload too: code.py ends only as said above
        import board
        import builtins

        reload = getattr(builtins, "ReloadException", None)  # CircuitPython's own
        if reload is not None and isinstance(e, reload):
            if hw is None or not getattr(hw.blocks, "writing", True):
                raise  # nothing open for writing: its close at code.py's end changes nothing
        elif isinstance(e, SystemExit) or (getattr(board, "RAISE_FAULTS", False)
                                           and not isinstance(e, KeyboardInterrupt)):
            # No game raises SystemExit: a test harness ending its session does; and the
            # simulator's board asks for the traceback unless it plays the board's faults.
            raise
        App.current = None  # the App, its screens and its game are garbage now
        from freecell_mc.hardware import source

        source.fault(hw.display if hw is not None else None, e)
