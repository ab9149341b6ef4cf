# SPDX-License-Identifier: MIT
"""What a screen may read of the App and ask of it: the App as the screens see it.

Every screen of this folder (and widgets.Screen, their base) is built with the App and keeps
it as ``self.app``, but uses only what `Host` names: it reads the values and never writes
into them (``dirty`` alone is set), calls on them only the QUERIES, and asks for everything
else through the actions, which the App carries out (settings applied and saved, the clock
set and the date saved, a deal begun, another screen shown). A screen never reaches the
hardware, nor writes into the saves or the game.

tests/test_layers.py reads every screen module and fails on a use past this interface;
tests/test_screens.py's FakeApp is a fake of it, and a test holds the App and the fake to
its names and call signatures, so neither drifts from it. The table (ui/table.py,
ui/tableview.py and ui/narrow.py) is held the same way to `TableHost`: Host, and the game
it plays. And the other way round, `PlayHost` names what play.py's Play asks of the App
that holds it: kept here with the others, the App's contracts in one place.

The board never imports this module: it is the contract, for the reader and the tests. The
values are the App's own objects, read in place (a copy or a method a value would cost
the board heap and names; docs/memory.md, "The interned strings").
"""


class Host:
    """The values a screen reads and the actions it asks the App for (app.py's App)."""

    # -- values: read, never written (but dirty) ----------------------------------------

    width = 0  # the display's size in pixels
    height = 0
    ppcm = 0  # the panel's density in pixels per 10 mm (widgets.Metrics sizes from it)
    dirty = False  # set to True to have the display refreshed at the end of the poll
    art = None  # the table's card art (ui/cardart.py's CardArt), None until a table was built
    clock = None  # the board's clock (hardware/clock.py): today() only
    game = None  # the Game in play (rules/engine.py): won() only
    # saves/policy.py's Saves: settings, stats and last_date to read; slot(i), limit_reason()
    # and stats.day_won(y, m, d) to ask
    saves = None
    backlight = None  # hardware/backlight.py's Backlight: adjustable (whether it can dim)

    # The calls a screen may make on the values (the path from the App, dotted).
    QUERIES = ("clock.today", "game.won", "saves.slot", "saves.limit_reason",
               "saves.stats.day_won")  # type: tuple

    # -- what the player sees next ----------------------------------------------------

    def goto(self, name, **kw):
        """Show the screen called name, its show() given kw."""

    def continue_game(self):
        """Go back to the table with the game in play (a won one: its result)."""

    def first_screen(self):
        """Show where a start goes once its notice was read (the date picker, or the game)."""

    def answer(self, choice):
        """Act on the answer to "Unfinished game": "yes" gives it up, "keep" continues it."""

    # -- the deal in play -------------------------------------------------------------

    def new_deal(self):
        """Play a fresh free deal (asking first if an unfinished game would be lost)."""

    def replay(self):
        """Play the deal in play again from the start (asking first)."""

    def start_deal(self, kind, number, cells, sure=False):
        """Play deal kind/number with cells free cells (unless sure, asking first)."""

    def start_daily(self, y, m, d):
        """Play the daily deal of y-m-d, continuing it if it is the one saved."""

    def daily_today(self):
        """Play today's daily deal (asking for the date first if the clock is not set)."""

    def switch_slot(self, slot):
        """Leave the game in play saved and continue the one kept in slot."""

    def skip_date(self):
        """Play free deals without setting the clock."""

    def undo_win(self):
        """Take the winning move back and return to the table."""

    def current_deal(self):
        """Return (kind, number, cells, deal code) of the deal in play."""

    def other_deal(self):
        """Return (kind, number) of the game kept in the slot not in play, or None."""

    def other_slot_saved(self):
        """Return the slot not in play if it holds a game to go back to, else None."""

    # -- the player's choices ---------------------------------------------------------

    def set_today(self, y, m, d):
        """Take y-m-d, the player's date, as today: the clock is set and the date saved."""

    def set_setting(self, name, value):
        """Change the setting called name (saves/settings.py) to value, apply it, save it."""


class TableHost(Host):
    """What the table may use of the App: Host, the Game it plays and the move's account.

    The table is the one place that changes the game: its moves, undos and finish steps,
    each told to the App with moved(). It reads the game's position through the queries
    below (and its plain values: moves, cells, takeback, last_src, last_dst), and the
    clock's ticks for the finish's steps.
    """

    QUERIES = Host.QUERIES + (
        "clock.ticks_ms", "game.column_len", "game.column_cards", "game.run_len", "game.top",
        "game.targets", "game.history_len", "game.finish_available", "game.dead_end",
        "game.move", "game.undo", "game.finish_step",
    )

    def moved(self):
        """Account for a move or an undo the table has just shown: the slot, the statistics,
        and a win (the result screen next)."""


class PlayHost:
    """What Play (play.py) may use of the App that holds it: where the player goes next.

    The App holds one Play and binds its deal actions for the screens (app.py); Play keeps
    the App to show what it does, and nothing more: no screen, no display, no hardware (its
    saves and clock are handed to it apart). tests/test_layers.py holds play.py to these
    names as it holds the screens to Host.
    """

    dirty = False  # set to True to have the display refreshed at the end of the poll

    def goto(self, name, **kw):
        """Show the screen called name (Host.goto): the date picker before a daily."""

    def show_deal(self):
        """Show the deal now in play: the table, or a won game's result."""

    def show_result_next(self):
        """Show the result of the game just won, once the tap or step that won it returns."""

    def ask(self, kind, number, cells, slot):
        """Ask the player before the unfinished game in slot gives way to deal kind/number
        (the "confirm" screen; its answer comes back as Play's start_deal or switch_slot)."""
