# SPDX-License-Identifier: MIT
"""The game in play: the deal, its slot in the saves, its clock and its statistics.

`Play` holds the Game, the saves and which deal of which slot is in play: dealing,
continuing a saved game, keeping it in its slot, counting it played and won, and the
daily deal of a date. It knows no screen: app.py's App holds one Play and shows what it
does; Play tells the App through goto(), show_deal(), show_result_next() and ask(), and
asks for a refresh with its `dirty`: no more (ui/screens/host.py's PlayHost names them, and
tests/test_layers.py holds Play to it).
"""

from freecell_mc.compat import const
from freecell_mc.dates import day_number, known_today, plausible
from freecell_mc.rules import deals
from freecell_mc.rules.engine import CHUNK_MOVES, LOG_MOVES, Game
from freecell_mc.saves.record import SLOT_DAILY, SLOT_FREE, SLOT_PLAYED, SLOT_WON, unfinished
from freecell_mc.saves.settings import Settings

# How far past the confirmed day the clock may run and still move the daily days won: the
# statistics keep 64 days, the calendar shows 30, so a clock up to 34 days ahead of the
# real date, once put right, still finds every day the calendar shows (docs/saves.md).
DAY_SLACK = const(34)


class _NullSaves:
    """Stands in for Saves (saves/policy.py) when the hardware offers no blocks at all."""

    def __init__(self):
        """Hold defaults only."""
        from freecell_mc.saves.stats import Stats

        self.settings = Settings()
        self.stats = Stats()
        self.last_date = None
        self.active = SLOT_FREE
        self.confirmed_day = 0

    def load(self):
        """Nothing to load."""
        return None

    def slot(self, i):
        """No saved games."""
        return None

    def put_slot(self, i, kind, number, cells, game, elapsed_s, flags=0, millis=0):
        """Keep nothing."""

    def clear_slot(self, i):
        """Keep nothing."""

    def set_elapsed(self, i, seconds, millis=0):
        """Keep nothing."""

    def note_date(self, y, m, d):
        """Keep nothing."""

    def commit(self, now_ms, force=False):
        """Write nothing."""
        return False

    def erase_ahead(self):
        """Nothing to erase."""
        return False

    def limit_reason(self):
        """Nothing limits saves that are not kept."""
        return None


def keep(game, spare):
    """Return what the game in play leaves for its slot when another is played: its
    position, its move count, and its undo history, [pos, moves, log, count].

    The history changes hands, it is not copied: the chunks that hold its moves go with
    it, and the game keeps the others, with spare (the chunks of a history given up, or
    []) as its empty log. Setting aside 2,000 moves costs what one does: the 68-byte
    position and this list. resume() gives it back.
    """
    log, n = game.trade_history(spare, 0)
    while len(log) > (n + CHUNK_MOVES - 1) // CHUNK_MOVES:
        spare.append(log.pop())
    return [bytearray(game.pos), game.moves, log, n]


def resume(game, kept):
    """Give game back the undo history of keep() if kept is this very position and move
    count; return the log the game gives up for it, or None if it was not taken.

    The game's empty chunks fill the history's log up to the chunks every Game starts
    with, so that its next moves find room without asking the heap.
    """
    if kept[1] != game.moves or kept[0] != game.pos:
        return None
    log = kept[2]
    old = game.trade_history(log, kept[3])[0]
    while old and len(log) < LOG_MOVES // CHUNK_MOVES:
        log.append(old.pop())
    return old


def open_saves(hw):
    """Return Saves over the hardware's blocks, or a stand-in without them."""
    blocks = getattr(hw, "blocks", None)
    if not blocks:
        return _NullSaves()
    from freecell_mc.saves.policy import Saves

    return Saves(blocks)


class Play:
    """The deal in play on one piece of hardware, with its saves and statistics."""

    def __init__(self, app, saves, clock, start=None):
        """Continue the game the loaded saves hold, or deal start (kind, number, cells).

        app shows what happens (app.py's App, as PlayHost names it: goto, show_deal,
        show_result_next, ask, dirty); clock gives the date and the ticks.
        """
        self.app = app
        self.clock = clock
        self.saves = saves
        st = saves.settings
        self.game = Game(st.cells, st.takeback)
        self.kind = deals.KIND_SEED
        self.number = 0
        self.slot = SLOT_FREE
        self.counted = False  # this deal already counted as played
        self.finished = False  # this deal's win is already recorded
        self.elapsed_ms = 0
        # The undo history of the slot not in play (keep), while the board is on:
        # leaving one slot to try the other loses neither game, nor its undo.
        self._kept = None
        if start:
            kind, number, cells = start
            self._begin(kind, number, cells)
        elif not self._restore(self.saves.active) and not self._restore(1 - self.saves.active):
            # Neither slot holds a game (an emptied active slot never costs the other its game).
            self._begin(deals.KIND_SEED, self._fresh_seed(), st.cells)

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

    def _set_aside(self, slot, spare=None):
        """Return the undo history to keep once a game of slot is in play.

        For the other slot: the history of the game in play (None if it has none), which
        replaces whatever was kept for the slot about to be played; the game takes spare as
        its empty log (None: the log of what was kept, which goes). For the slot in play:
        the history kept for the other slot, as it is: that game is still there to go back
        to, and resume() takes the history only for its very position. Taken before the
        game changes, and kept (`_kept`) once it has.
        """
        if slot == self.slot:
            return self._kept
        g = self.game
        if not g.history_len():
            return None
        if spare is None:
            old = self._kept
            spare = [] if old is None else old[2]
        return keep(g, spare)

    def _begin(self, kind, number, cells):
        """Deal kind/number with cells free cells into the game; its slot becomes active."""
        deck = deals.deck_for(kind, number)
        self._kept = self._set_aside(SLOT_DAILY if kind == deals.KIND_DAILY else SLOT_FREE)
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
        try:
            deals.deal_code(s.kind, s.number, s.cells)
        except ValueError:
            return False
        g = self.game
        kept = self._kept
        other = slot != self.slot
        # The history kept for slot comes back below, so the game takes a new empty log;
        # the game in play's is kept for its own slot (before load() empties the log).
        aside = self._set_aside(slot, [])
        # load() checks the cells against the game's count; a save it refuses leaves the
        # game in play, and the history kept for the other slot, as they were.
        cells = g.cells
        g.cells = s.cells
        try:
            g.load(s.pos, s.moves)
        except ValueError:
            g.cells = cells
            if other and aside is not None:
                g.trade_history(aside[2], aside[3])
            return False
        self._kept = aside
        g.takeback = bool(self.saves.settings.takeback)
        if other and kept is not None:
            # The history of this very position and count, kept when it was left.
            resume(g, kept)
        self.kind = s.kind
        self.number = s.number
        self.slot = slot
        # What the statistics already hold of this deal travels with it: a game undone
        # to its start, or a won game undone, counts no second game or win when continued.
        self.counted = s.moves > 0 or bool(s.flags & SLOT_PLAYED)
        self.finished = g.won() or bool(s.flags & SLOT_WON)
        self.elapsed_ms = s.elapsed * 1000 + s.millis
        self.saves.active = slot
        return True

    def save(self):
        """Put the game in play into its slot (RAM; commit() writes it when due).

        A won game stays in its slot: the next start shows its result screen.
        """
        g = self.game
        flags = (SLOT_PLAYED if self.counted else 0) | (SLOT_WON if self.finished else 0)
        ms = self.elapsed_ms
        self.saves.put_slot(self.slot, self.kind, self.number, g.cells, g, ms // 1000, flags,
                            ms % 1000)

    def unfinished(self, slot):
        """Return True if slot holds a game begun and not won, which a new deal there would lose."""
        if slot == self.slot:
            g = self.game
            return g.moves > 0 and not self.finished and not g.won()
        s = self.saves.slot(slot)
        return s is not None and unfinished(s.moves, s.flags)

    def start_deal(self, kind, number, cells, sure=False):
        """Play deal kind/number with cells free cells from the start.

        A game in progress in the slot the deal goes to is given up only when the player
        says so: unless sure, the player is asked first.
        """
        slot = SLOT_DAILY if kind == deals.KIND_DAILY else SLOT_FREE
        if not sure and self.unfinished(slot):
            self.app.ask(kind, number, cells, slot)
            return
        self.save()
        self._begin(kind, number, cells)
        self.app.show_deal()

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
            self.app.show_deal()
            return
        self.save()
        s = self.saves.slot(SLOT_DAILY)
        if s is not None and s.kind == deals.KIND_DAILY and s.number == number:
            if self._restore(SLOT_DAILY):
                self.app.show_deal()
                return
        self.start_deal(deals.KIND_DAILY, number, self.saves.settings.cells)

    def vouch_date(self, y, m, d, picked):
        """Take y-m-d as today: picked by the player, or read from a running clock.

        Return False when a clock (not the player) says a date so far past the confirmed
        day that it may be wrong (an RTC that lost its date): the player is asked first,
        and until then daily wins count but do not move the days won (Stats.mark_day_won).
        """
        saves = self.saves
        day = day_number(y, m, d)
        c = saves.confirmed_day
        if not picked and c and day > c + DAY_SLACK:
            return False  # nor is it the last date known: the date picker would start there
        saves.note_date(y, m, d)
        if picked or day > c:
            saves.confirmed_day = day
        return True

    def set_today(self, y, m, d):
        """Take y-m-d, the date the player picked, as today: set the clock and save it."""
        clock = self.clock
        clock.set_today(y, m, d)
        self.vouch_date(y, m, d, True)
        # The date alone never makes a save due; written now, the next start's picker
        # begins from it even if the power goes before anything else changes.
        self.saves.commit(clock.ticks_ms(), True)

    def daily_today(self):
        """Play today's daily deal, asking for the date first if the clock is not set."""
        y, m, d = self.clock.today()
        if plausible(y):
            self.start_daily(y, m, d)
        else:
            self.app.goto("datepicker", then="daily")

    def skip_date(self):
        """Play free deals without setting the clock (the daily asks for the date when chosen)."""
        if self.slot == SLOT_DAILY:
            self.switch_slot(SLOT_FREE)
        else:
            self.app.show_deal()

    def daily_open(self, number):
        """Return True if the daily of number is one of the calendar's days today.

        Only those are recorded as daily days won, so the statistics and the calendar
        always speak of the same days: a future day never gets this far, and an older
        one (from a shared code) counts as a game won but not as a daily day.
        """
        today = known_today(self.clock.today(), self.saves.last_date)
        return deals.daily_status(number, today) == deals.DAY_OPEN

    def undo_win(self):
        """Take the winning move back and return to the table (the win stays counted)."""
        if self.game.undo():
            self.moved()
        self.app.goto("table")

    def other_slot_saved(self):
        """Return the slot not in play if it holds a game to go back to (not won).

        Begun or not: a deal typed in and left untouched for a look at the daily is kept
        in its slot like any other, not to be typed again.
        """
        other = SLOT_FREE if self.slot == SLOT_DAILY else SLOT_DAILY
        s = self.saves.slot(other)
        return other if s is not None and not s.flags & SLOT_WON else None

    def other_deal(self):
        """Return (kind, number) of the game kept in the slot not in play, or None."""
        other = self.other_slot_saved()
        if other is None:
            return None
        s = self.saves.slot(other)
        return (s.kind, s.number)

    def switch_slot(self, slot):
        """Leave the game in play saved and continue the one kept in slot."""
        self.save()
        if slot != self.slot and self._restore(slot):
            self.app.show_deal()
        elif slot != self.slot and slot == SLOT_FREE:
            # No free game kept: a fresh one, so that "free deals" always means one.
            self._begin(deals.KIND_SEED, self._fresh_seed(), self.saves.settings.cells)
            self.app.show_deal()
        else:
            self.app.show_deal()
        # Which game is in play is part of the save: a power cut now returns to this one.
        self.saves.commit(self.clock.ticks_ms(), True)

    def current_deal(self):
        """Return (kind, number, cells, deal code) of the deal in play."""
        cells = self.game.cells
        return (self.kind, self.number, cells, deals.deal_code(self.kind, self.number, cells))

    def moved(self):
        """Account for a move or an undo just shown on the table."""
        g = self.game
        if not self.counted and g.moves > 0:
            self.counted = True
            self.saves.stats.record_start()
        won = g.won() and not self.finished
        if won:
            self.finished = True  # before the save, so the slot knows the win is counted
        self.save()
        self.app.dirty = True
        if won:
            self._won()

    def _won(self):
        """Record the win and show the result screen."""
        g = self.game
        secs = self.elapsed_ms // 1000
        st = self.saves.stats
        st.record_win(secs, g.moves)
        if self.kind == deals.KIND_DAILY and self.daily_open(self.number):
            c = self.saves.confirmed_day
            y, m, d = deals.daily_date(self.number)
            st.mark_day_won(y, m, d, c + DAY_SLACK if c else None)
        self.saves.commit(self.clock.ticks_ms(), True)
        self.app.show_result_next()
