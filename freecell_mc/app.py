# SPDX-License-Identifier: MIT
"""The App: the main loop, the screens, the game in play, its saves and statistics.

One poll() reads the touch panel once, turns readings into taps, hands taps and keys to
the active screen, advances its timers, lets the saves commit when due, and refreshes the
display once, only if something changed (auto-refresh is off). Every screen, the table too,
is built when entered and dropped when left; the table's card art is kept.
"""

import displayio

from freecell_mc.compat import const
from freecell_mc.dates import plausible, ticks_diff
from freecell_mc.hardware.taps import Taps
from freecell_mc.rules import deals
from freecell_mc.rules.engine import Game
from freecell_mc.saves.record import SLOT_PLAYED, SLOT_WON, Settings

SLOT_FREE = const(0)
SLOT_DAILY = const(1)
_MAX_ELAPSED_MS = const(0x3FFFFFFF)


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


class _NullSaves:
    """Stands in for Saves (saves/policy.py) when the hardware offers no blocks at all."""

    def __init__(self):
        """Hold defaults only."""
        from freecell_mc.saves.stats import Stats

        self.settings = Settings()
        self.stats = Stats()
        self.last_date = None
        self.active = SLOT_FREE

    def load(self):
        """Nothing to load."""
        return None

    def slot(self, i):
        """No saved games."""
        return None

    def put_slot(self, i, kind, number, cells, game, elapsed_s, flags=0):
        """Keep nothing."""

    def clear_slot(self, i):
        """Keep nothing."""

    def set_elapsed(self, i, seconds):
        """Keep nothing."""

    def note_date(self, y, m, d):
        """Keep nothing."""

    def commit(self, now_ms, force=False):
        """Write nothing."""
        return False


class App:
    """FreeCell MC on one piece of hardware (docs/architecture.md, "The hardware boundary")."""

    current = None  # the running App, for host tools

    def __init__(self, hw):
        """Take the hardware, load the saves and show the table (or ask for the date)."""
        App.current = self
        self.hw = hw
        self.display = hw.display
        self.width = hw.display.width
        self.height = hw.display.height
        self.clock = hw.clock
        self.touch = hw.touch
        self.keys = getattr(hw, "keys", None)
        self.dirty = True
        self.taps = Taps()
        self.saves = self._open_saves(hw)
        self.message = self.saves.load()
        st = self.saves.settings
        # The player's calibration is in the saves, so the hardware learns it only now.
        self._apply_calibration()
        self.game = Game(st.cells, st.takeback)
        self.kind = deals.KIND_SEED
        self.number = 0
        self.slot = SLOT_FREE
        self.counted = False  # this deal already counted as played
        self.finished = False  # this deal's win is already recorded
        self._polling = False  # inside poll()'s tap, key or tick: screen changes wait
        self._goto_due = None  # (name, kw) of the screen to show when they have returned
        self.elapsed_ms = 0
        self._last_ms = self.clock.ticks_ms()
        self.root = displayio.Group()
        self.screen = None
        self.other = None
        self._pending = None  # the deal waiting for the player's answer (see _ask)
        self._back = ("table", {})
        start = getattr(hw, "start", None)
        if start:
            kind, number, cells = start
            self._begin(kind, number, cells)
        elif not self._restore(self.saves.active) and not self._restore(1 - self.saves.active):
            # Neither slot holds a game (an emptied active slot never costs the other its game).
            self._begin(deals.KIND_SEED, self._fresh_seed(), st.cells)
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
            self.saves.note_date(today[0], today[1], today[2])
            if self.game.won():
                # The game kept in the slot was won: greet the player with its result and
                # the ways on (new deal, replay, daily), not with an empty table.
                self._show_result()
            else:
                self.goto("table")
        else:
            self.goto("datepicker", then="table")

    @staticmethod
    def _open_saves(hw):
        """Return Saves over the hardware's blocks, or a stand-in without them."""
        blocks = getattr(hw, "blocks", None)
        if not blocks:
            return _NullSaves()
        from freecell_mc.saves.policy import Saves

        return Saves(blocks)

    def _apply_calibration(self):
        """Hand the saved touch calibration to the hardware and take its touch panel."""
        cal = self.saves.settings.calibration
        setcal = getattr(self.hw, "set_calibration", None)
        if setcal is not None and cal:
            setcal(cal)
            self.touch = self.hw.touch

    # -- the deal in play ------------------------------------------------------------

    def _fresh_seed(self):
        """Return a fresh 32-bit seed for a free deal."""
        try:
            import os

            r = os.urandom(4)
            return r[0] | r[1] << 8 | r[2] << 16 | r[3] << 24
        except (ImportError, AttributeError, NotImplementedError):
            t = self.clock.ticks_ms()
            return (t * 2654435761) & 0xFFFFFFFF

    def _begin(self, kind, number, cells):
        """Deal kind/number with cells free cells into the game; its slot becomes active."""
        deck = deals.deck_for(kind, number)
        g = self.game
        g.cells = cells
        g.takeback = bool(self.saves.settings.takeback)
        g.deal(deck)
        self.kind = kind
        self.number = number
        self.slot = SLOT_DAILY if kind == deals.KIND_DAILY else SLOT_FREE
        self.counted = False
        self.finished = False
        self.elapsed_ms = 0
        self.saves.put_slot(self.slot, kind, number, cells, g, 0)

    def _restore(self, slot):
        """Continue the game saved in slot; return False if there is none (or it is bad)."""
        s = self.saves.slot(slot)
        if s is None:
            return False
        g = self.game
        try:
            deals.deal_code(s.kind, s.number, s.cells)
            g.cells = s.cells
            g.takeback = bool(self.saves.settings.takeback)
            g.load(s.pos, s.moves)
        except ValueError:
            return False
        self.kind = s.kind
        self.number = s.number
        self.slot = slot
        # What the statistics already hold of this deal travels with it: a game undone
        # to its start, or a won game undone, counts no second game or win when continued.
        self.counted = s.moves > 0 or bool(s.flags & SLOT_PLAYED)
        self.finished = g.won() or bool(s.flags & SLOT_WON)
        self.elapsed_ms = s.elapsed * 1000
        self.saves.active = slot
        return True

    def _save(self):
        """Put the game in play into its slot (RAM; commit() writes it when due).

        A won game stays in its slot: the next start shows its result screen.
        """
        g = self.game
        flags = (SLOT_PLAYED if self.counted else 0) | (SLOT_WON if self.finished else 0)
        self.saves.put_slot(self.slot, self.kind, self.number, g.cells, g, self.elapsed_ms // 1000,
                            flags)

    def _show_deal(self):
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

    def unfinished(self, slot):
        """Return True if slot holds a game begun and not won, which a new deal there would lose."""
        if slot == self.slot:
            g = self.game
            return g.moves > 0 and not self.finished and not g.won()
        from freecell_mc.ui.screens import models

        s = self.saves.slot(slot)
        return s is not None and models.unfinished(s.moves, s.flags)

    def start_deal(self, kind, number, cells, sure=False):
        """Play deal kind/number with cells free cells from the start.

        A game in progress in the slot the deal goes to is given up only when the player
        says so: unless sure, the player is asked first.
        """
        slot = SLOT_DAILY if kind == deals.KIND_DAILY else SLOT_FREE
        if not sure and self.unfinished(slot):
            self._ask(kind, number, cells, slot)
            return
        self._save()
        self._begin(kind, number, cells)
        self._show_deal()

    def new_deal(self):
        """Play a fresh free deal."""
        self.start_deal(deals.KIND_SEED, self._fresh_seed(), self.saves.settings.cells)

    def replay(self):
        """Play the current deal again from the start."""
        self.start_deal(self.kind, self.number, self.game.cells)

    def start_daily(self, y, m, d):
        """Play the daily deal of y-m-d, continuing it if it is the one saved."""
        number = deals.daily_seed(y, m, d)
        if self.slot == SLOT_DAILY and self.kind == deals.KIND_DAILY and self.number == number:
            # Already in play: keep its undo history rather than reloading it from the save.
            self._show_deal()
            return
        self._save()
        s = self.saves.slot(SLOT_DAILY)
        if s is not None and s.kind == deals.KIND_DAILY and s.number == number:
            if self._restore(SLOT_DAILY):
                self._show_deal()
                return
        self.start_deal(deals.KIND_DAILY, number, self.saves.settings.cells)

    def daily_today(self):
        """Play today's daily deal, asking for the date first if the clock is not set."""
        y, m, d = self.clock.today()
        if plausible(y):
            self.start_daily(y, m, d)
        else:
            self.goto("datepicker", then="daily")

    def _ask(self, kind, number, cells, slot):
        """Ask before the unfinished game in slot gives way to deal kind/number."""
        from freecell_mc.ui.screens import models

        self._pending = (kind, number, cells, slot)
        scr = self.screen
        # A "no" returns the player to where the question came from, as it was.
        resume = getattr(scr, "resume", None)
        self._back = (scr.name if scr is not None else "table", resume() if resume else {})
        if slot == self.slot:
            lost_kind, lost_number, moves = self.kind, self.number, self.game.moves
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
        self.goto(
            "confirm",
            text=models.loss_text(models.deal_name(lost_kind, lost_number), moves, other),
            yes=yes,
            keep=models.continue_label(lost_kind, lost_number),
            back=self._back[0] not in ("table", "result"),
        )

    def answer(self, choice):
        """Act on the answer to _ask: "yes" gives the game up, "keep" continues it, else back."""
        pending = self._pending
        self._pending = None
        if pending is None:
            self._show_deal()
            return
        kind, number, cells, slot = pending
        if choice == "yes":
            self.start_deal(kind, number, cells, True)
        elif choice == "keep":
            if slot == self.slot:
                self._show_deal()
            else:
                self.switch_slot(slot)
        else:
            name, kw = self._back
            if name == "table" or name == "result":
                self._show_deal()
            else:
                self.goto(name, **kw)

    def skip_date(self):
        """Play free deals without setting the clock (the daily asks for the date when chosen)."""
        if self.slot == SLOT_DAILY:
            self.switch_slot(SLOT_FREE)
        else:
            self._show_deal()

    def daily_open(self, number):
        """Return True if the daily of number is one of the calendar's days today.

        Only those are recorded as daily days won, so the statistics and the calendar
        always speak of the same days: a future day never gets this far, and an older
        one (from a shared code) counts as a game won but not as a daily day.
        """
        from freecell_mc.ui.screens import models

        today = models.known_today(self.clock.today(), self.saves.last_date)
        return models.daily_status(number, today) == models.DAY_OPEN

    def continue_game(self):
        """Back to the table with the active slot's game (a won one: its result)."""
        self.goto("table")

    def undo_win(self):
        """Take the winning move back and return to the table (the win stays counted)."""
        if self.game.undo():
            self.moved()
        self.goto("table")

    def other_slot_saved(self):
        """Return the slot not in play if it holds a game to go back to, else None."""
        other = SLOT_FREE if self.slot == SLOT_DAILY else SLOT_DAILY
        return other if self.saves.slot(other) is not None else None

    def other_deal(self):
        """Return (kind, number) of the game kept in the slot not in play, or None."""
        other = self.other_slot_saved()
        if other is None:
            return None
        s = self.saves.slot(other)
        return (s.kind, s.number)

    def switch_slot(self, slot):
        """Leave the game in play saved and continue the one kept in slot."""
        self._save()
        if slot != self.slot and self._restore(slot):
            self._show_deal()
        elif slot != self.slot and slot == SLOT_FREE:
            # No free game kept: a fresh one, so that "free deals" always means one.
            self._begin(deals.KIND_SEED, self._fresh_seed(), self.saves.settings.cells)
            self._show_deal()
        else:
            self._show_deal()
        # Which game is in play is part of the save: a power cut now returns to this one.
        self.saves.commit(self.clock.ticks_ms(), True)

    def current_deal(self):
        """Return (kind, number, cells, deal code) of the deal in play."""
        cells = self.game.cells
        return (self.kind, self.number, cells, deals.deal_code(self.kind, self.number, cells))

    def settings_changed(self):
        """Apply changed settings: colours, take-back, touch calibration (cells: next deal)."""
        st = self.saves.settings
        if self.art is not None:  # None until a table was built; the next one reads st
            self.art.set_four_colour(st.four_colour)
        self.game.takeback = bool(st.takeback)
        self._apply_calibration()
        self.saves.commit(self.clock.ticks_ms(), True)
        self.dirty = True

    def moved(self):
        """Account for a move or an undo just shown on the table."""
        g = self.game
        if not self.counted and g.moves > 0:
            self.counted = True
            self.saves.stats.record_start()
        won = g.won() and not self.finished
        if won:
            self.finished = True  # before the save, so the slot knows the win is counted
        self._save()
        self.dirty = True
        if won:
            self._won()

    def _won(self):
        """Record the win and show the result screen."""
        g = self.game
        secs = self.elapsed_ms // 1000
        st = self.saves.stats
        st.record_win(secs, g.moves)
        if self.kind == deals.KIND_DAILY and self.daily_open(self.number):
            from freecell_mc.ui.screens import models

            st.mark_day_won(*models.daily_date(self.number))
        self.saves.commit(self.clock.ticks_ms(), True)
        # Shown by poll() once the winning tap or finish step has returned, straight from
        # there: built eight frames down the tap, the result screen overflowed the board's
        # Python stack.
        self._goto_due = ("result", self._result_kw())

    def _result_kw(self):
        """Return what the result screen shows of the game in play: moves, time, the deal."""
        g = self.game
        return {"moves": g.moves, "seconds": self.elapsed_ms // 1000,
                "code": deals.deal_code(self.kind, self.number, g.cells),
                "kind": self.kind, "number": self.number}

    def _show_result(self):
        """Show the result screen of the won game in play."""
        self.goto("result", **self._result_kw())

    # -- screens ---------------------------------------------------------------------

    def goto(self, name, **kw):
        """Show the screen called name (the table, or a screen module built on entry).

        A won game never shows as a table with nothing left to play: whatever path leads
        back to it (Continue, the date picker, a slot switch, a start) shows its result.

        Asked for from a tap, a key or a timer, the screen is built when that has returned
        (still in the same poll, before the refresh): built down there, a screen's build
        (with the labels it had then) ran CircuitPython 9's 1,536-byte Python stack out
        (docs/memory.md).
        """
        if name == "table" and self.game.won():
            self._show_result()
            return
        if self._polling:
            self._goto_due = (name, kw)
            return
        self._goto(name, kw)

    def _goto(self, name, kw):
        """Leave the active screen and show the one called name with kw."""
        if self.table is not None and self.screen is self.table and name != "table":
            self.table.close()
            # The slot last took the time at the last move: the thinking since counts too.
            self._save()
            self.saves.commit(self.clock.ticks_ms(), True)
            # Its display objects (about 25 KB) and its module's code (7 KB) give way to the
            # next screen; the card art stays, so coming back builds tile grids and texts,
            # not the art.
            self.table = None
            _forget("freecell_mc.ui", ("table",))
        # The old screen lets go of everything before the new one is built, so the two are
        # never on the heap together (docs/memory.md, "peak during a screen change").
        root = self.root
        while len(root):
            root.pop()
        self.screen = None
        if self.other is not None:
            gone = self.other.name
            self.other.close()
            self.other = None
            _forget_screen(gone)
        if name == "table":
            if self.table is None:
                # Built right here, not in a helper: this is the deepest path of the game.
                from freecell_mc.ui.table import Table

                self.table = Table(self, self.saves.settings.four_colour, self.art)
                self.art = self.table.art
            screen = self.table
            screen.show(**kw)
        else:
            from freecell_mc.ui.screens import screen_class

            screen = screen_class(name)(self)
            self.other = screen
            screen.show(**kw)
        root.append(screen.group)
        self.screen = screen
        self.taps.reset()
        self.dirty = True

    def key(self, k):
        """Hand a key to the active screen."""
        self.screen.key(k)

    # -- the loop --------------------------------------------------------------------

    def poll(self):
        """Run one iteration: touch, keys, timers, saves, and at most one refresh."""
        now = self.clock.ticks_ms()
        dt = ticks_diff(now, self._last_ms)
        self._last_ms = now
        g = self.game
        if self.screen is self.table and g.moves and not g.won() and 0 < dt:
            # Elapsed time is play time at the table, recorded silently.
            if self.elapsed_ms < _MAX_ELAPSED_MS:
                self.elapsed_ms += dt
                # Into the record as it runs: thinking time survives a power cut too.
                self.saves.set_elapsed(self.slot, self.elapsed_ms // 1000)
        reading = self.touch.touch_point
        tap = self.taps.feed(reading, now)
        self._polling = True
        if tap is not None:
            self.screen.tap(tap[0], tap[1])
        keys = self.keys
        if keys is not None:
            k = keys.read()
            if k is not None:
                self.key(k)
        self.screen.tick(now)
        self._polling = False
        due = self._goto_due
        if due is not None:
            self._goto_due = None
            self._goto(due[0], due[1])
        self.saves.commit(now)
        if self.dirty:
            self.dirty = False
            self.display.refresh()

    def run(self):
        """Poll forever (the board's main loop)."""
        try:
            import time

            sleep = time.sleep
        except ImportError:
            sleep = None
        while True:
            self.poll()
            if sleep is not None:
                sleep(0.005)


def main():
    """Build the board's hardware and run the game until power-off (code.py's main)."""
    from freecell_mc.hardware.device import build

    App(build()).run()
