# SPDX-License-Identifier: MIT
"""The playing screen: what a tap, a key or the clock means at the table.

Taps follow SPEC section 4: tap a card (or inside the ordered run at a column's bottom)
to pick it up with every card below it; a place lights up only where the whole held run
may land (a run longer than can be carried lights nothing, and free cells light for a
single card only); tap a lit place to put the run there; tap the held card again to send
it home; tap an unlit place and nothing moves: the selection jumps to what can move
there, or clears. Finish sends the cards home one step at a time. What the table draws
is tableview.py's (Table is a TableView).
"""

from freecell_mc.compat import const
from freecell_mc.dates import ticks_diff
from freecell_mc.ui import widgets
from freecell_mc.ui.layout import HIT_FINISH, HIT_MENU, HIT_NONE, HIT_UNDO, SLOT_CELL, SLOT_FOUND
from freecell_mc.ui.tableview import TableView

FINISH_STEP_MS = const(120)  # one card home per step: quick, but each one visible


class Table(TableView):
    """The playing screen of an App (see docs/architecture.md)."""

    name = "table"
    finishing = False  # sending cards home, one every FINISH_STEP_MS
    _finish_ms = 0

    def redraw(self):
        """Redraw everything from the position (new deal, loaded game, many undos)."""
        self.clear_selection()
        self.finishing = False
        # Its slot in the table's dict now, while the heap is the table's build's: set first
        # by Finish, late in a long game, the dict's growth found no room on the Titano.
        self._finish_ms = 0
        self.set_cells(self.app.game.cells)
        self.sync(restack=True)  # every slot

    # -- taps ------------------------------------------------------------------------

    def tap(self, x, y):
        """Act on a derived tap at (x, y)."""
        app = self.app
        app.dirty = True
        if self.finishing:
            self.finishing = False  # any tap stops the finish, and does nothing else
            return
        if self.lens_col >= 0:
            self.sync(0)  # the lens closes (its column back in place), and nothing else
            return
        strip = self.strip
        if strip.tap(x, y, app.game):
            self.clear_selection()  # the dead-end message opened or closed, nothing else
            return
        lay = self.layout
        hit = lay.hit(x, y)
        if strip.finish_shown and strip.finish_button is not None and strip.finish_button.hit(x, y):
            hit = HIT_FINISH  # where there is no strip it stands over the felt
        src = self.sel_src
        if hit >= HIT_UNDO:
            self.clear_selection()
            # With a card held, a button only lets go of it: a tap that misses a lit place
            # beside Undo, Menu or Finish never takes a move back or leaves the table.
            if src >= 0:
                return
            if hit == HIT_UNDO:
                self.undo()
            elif hit == HIT_MENU:
                app.goto("menu")
            elif hit == HIT_FINISH and self.strip.finish_shown:
                self.start_finish()
            return
        if hit == HIT_NONE:
            self.clear_selection()
            return
        game = app.game
        slot = hit
        idx = -1
        n = 0
        if src >= 0 and src < SLOT_FOUND and slot >= SLOT_FOUND and lay.found_x:
            # The foundations' small cards are one place for a held card: its own suit's.
            slot = SLOT_FOUND + (game.top(src) & 3)
        if slot < SLOT_CELL:
            n = game.column_len(slot)
            first = n - game.run_len(slot)
            # A long column's cards that cannot move show a smaller index: with nothing
            # held, a tap on them opens the column whole at the full index (the lens), but
            # for the half target over the run, where a finger aimed at the run's first
            # card lands too: there it picks the run, as a tap over a run does elsewhere.
            if src < 0 and self.lens_bg is not None and lay.tight(n):
                top = lay.card_y(first, n)
                split = top - lay.target // 2
                # The lens keeps half a target at the column's top (all of the covered
                # cards where they take less).
                least = lay.col_y + lay.target // 2
                if split < least:
                    split = least if least < top else top
                if y < split:
                    strip.narrow.open_lens(self, slot)
                    return
            idx = lay.hit_column(y, n, first)
        if src >= 0:
            k = self.sel_n
            if slot == src:
                if slot < SLOT_CELL and idx != n - k:
                    self.select(slot, n - idx)  # another card of the same run
                    return
                b = game.top(src)
                self.clear_selection()
                if k == 1 and b:
                    self.play(src, SLOT_FOUND + (b & 3), 1)
                return
            # The highlight is the rule: a lit place takes all the held cards, an unlit
            # one (another suit's foundation too) never moves anything.
            if (self.lit >> slot) & 1:
                self.clear_selection()
                self.play(src, slot, k)
                return
        self.pick(slot, idx, n)

    def pick(self, slot, idx, n):
        """Pick up what a tap at slot (card idx of a column of n) can move, or clear."""
        game = self.app.game
        if slot < SLOT_CELL:
            if n == 0:
                self.clear_selection()
            else:
                self.select(slot, n - idx)
        elif slot < SLOT_FOUND:
            if game.top(slot):
                self.select(slot, 1)
            else:
                self.clear_selection()
        elif game.takeback and game.top(slot):
            self.select(slot, 1)
        else:
            self.clear_selection()

    def play(self, src, dst, n):
        """Make a move and show it; return True if the engine took it."""
        app = self.app
        if not app.game.move(src, dst, n):
            return False
        self.sync((1 << src) | (1 << dst))
        app.moved()
        return True

    def undo(self):
        """Take back one move (a finished card comes back one at a time)."""
        app = self.app
        game = app.game
        self.finishing = False
        self.clear_selection()
        if game.undo():
            self.sync((1 << game.last_src) | (1 << game.last_dst))
            app.moved()
        app.dirty = True

    def start_finish(self):
        """Start sending cards home one by one (tick does the steps)."""
        if self.app.game.finish_available():
            self.clear_selection()
            self.finishing = True
            self._finish_ms = self.app.clock.ticks_ms()
            self.finish_step()

    def finish_step(self):
        """Send one card home; stop when none can go."""
        app = self.app
        game = app.game
        b = game.finish_step()
        if not b:
            self.finishing = False
            return
        self.sync((1 << game.last_src) | (1 << game.last_dst))
        app.moved()

    def key(self, k):
        """Handle a key on the table."""
        app = self.app
        if k == "u" or k == "z":
            self.undo()
        elif k == "f":
            if self.finishing:
                self.finishing = False
            else:
                self.start_finish()
            app.dirty = True
        elif k == "esc":
            app.goto("menu")
        elif k == "n":
            app.new_deal()
        elif k == "r":
            app.replay()
        elif k == "d":
            app.daily_today()

    def tick(self, now_ms):
        """Build Finish or the dead-end panel the last move asked for; advance the finish
        animation."""
        st = self.strip
        if ((st.finish_shown and st.finish_button is None)
                or (st.dead_end_shown and st.dead_edge is None)):
            st.build(self.app.game)
            self.app.dirty = True
        if self.finishing and ticks_diff(now_ms, self._finish_ms) >= FINISH_STEP_MS:
            self._finish_ms = now_ms
            self.finish_step()

    def show(self, **kw):
        """Enter the table: redraw from the position (it may have changed elsewhere)."""
        self.redraw()

    def close(self):
        """Stop the finish and take the display objects apart (the App then drops the table)."""
        self.finishing = False
        self.clear_selection()
        widgets.dismantle(self.group)

    # -- for host tools --------------------------------------------------------------

    def tap_point(self, slot, index=-1):
        """Return the (x, y) a player taps for card `index` of a column or a cell/foundation."""
        n = self.app.game.column_len(slot) if slot < SLOT_CELL else 1
        return self.layout.tap_point(slot, index, n)

    def button_point(self, hit):
        """Return the centre of button HIT_UNDO, HIT_MENU or HIT_FINISH (where it is now)."""
        b = self.strip.finish_button
        if hit == HIT_FINISH and b is not None:
            return b.x + b.w // 2, b.y + b.h // 2
        return self.layout.button_point(hit)
