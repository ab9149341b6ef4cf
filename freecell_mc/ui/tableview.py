# SPDX-License-Identifier: MIT
"""What the playing screen draws: the cards, cells, foundations and the strip at the right
(where the layout has no strip, its buttons in the top row and the rest beside the cards:
narrow.py, which also fans a long column in the lens).

Built once. Every card is one of 52 TileGrids (2 x 4 tiles over cardart's sheet) that
is only ever moved (x, y), re-tiled (column card or top-row card), recoloured (palette:
normal, held, lit target) or hidden. Z-order follows one rule: a card that lands
somewhere is drawn over what it lands on, so it is lifted to the top of the card Group
(remove + append of the same object): in the top row always (its places may touch), on
a column only when it lies under the column's card in the z-order, with the cards that
land with it (a lift redraws the card's rectangle once more). Nothing else ever needs
reordering. The
table keeps a shadow of every card's place and look and touches displayio only where
something changed, so a single-card move dirties little more than the card's old and new
rectangles (plus the move counter). What a tap means is table.py's (Table is a TableView).
"""

import array

import displayio
import terminalio

from freecell_mc.compat import const
from freecell_mc.ui import cardart, widgets
from freecell_mc.ui.cardart import (
    P_HELD,
    P_LIT,
    P_NORMAL,
    T_BIG_RANK,
    T_BIG_RANK_LOW,
    T_BIG_SUIT,
    T_BIG_SUIT_LOW,
    T_BOTTOM_LEFT,
    T_BOTTOM_RIGHT,
    T_CLEAR,
    T_LEFT,
    T_RANK,
    T_RANK_TIGHT,
    T_RIGHT,
    T_SUIT,
    T_SUIT_TIGHT,
    T_TOP_LEFT,
    T_TOP_RIGHT,
)
from freecell_mc.ui.layout import (
    CARD_ROWS,
    FONT_W,
    HIT_FINISH,
    HIT_MENU,
    HIT_UNDO,
    SLOT_CELL,
    SLOT_FOUND,
    Layout,
)

DEAD_END = "No moves left. Every cell is full and nothing fits. Undo a move or start a new deal."
# What the panel says where the whole message has no room beside the cards: its first
# words, saying where the rest is where they have the room; a tap on the panel shows the
# whole message over the columns until the next tap (Strip.tap).
DEAD_MORE = "No moves left. Tap for more."
DEAD_SHORT = "No moves left."
DEAD_SHORTEST = "No moves"
# Where there is no strip (the Pynt) and the columns leave no room under their feet: the
# word the top row's place between the cells and Undo holds at the text size.
DEAD_STUCK = "Stuck"
_DEAD_OPEN = const(2)  # Strip._dead_shown while the whole message is open over the columns

_NO_PLACE = const(255)
_MODE_COLUMN = const(0)
_MODE_TIGHT = const(1)  # a covered card of a long column: the smaller index (Layout.tight)
_MODE_TOP = const(2)  # a card in a cell or on a foundation: the modes above are a column's
_MODE_SMALL = const(3)  # on a foundation in the block (Layout.found_x): index and bottom edge
_FULL = const(0xFFFF)  # every slot


class Strip:
    """The counter and the buttons Finish, Undo, Menu (in the strip at the right, or where the
    layout has no strip, in the top row and the felt); the dead-end panel."""

    def __init__(self, lay, art, g):
        """Build the strip's display objects for the layout lay and the card art into group g."""
        sx = lay.status_x
        sw = lay.status_w
        ts = lay.text_scale
        self.lay = lay
        self.moves_text = None  # with no strip, the digits alone (narrow.py)
        if sw:
            # A word that never changes: its glyph tiles in a scaled group, not a Text.
            self.moves_text = t = displayio.Group(scale=ts)
            t.append(widgets.glyph_tiles(terminalio.FONT, widgets.glyph_palette(cardart.TEXT),
                                         "Moves", sx + sw // 2, lay.moves_y, ts))
            g.append(t)
        self.counter = displayio.TileGrid(
            art.digits,
            pixel_shader=art.digit_palette,
            width=4,
            height=1,
            tile_width=art.digit_w,
            tile_height=art.digit_h,
            default_tile=10,
            x=sx + (sw - 4 * art.digit_w) // 2,
            y=lay.counter_y,
        )
        g.append(self.counter)
        self._digits = bytearray(b"\x0a\x0a\x0a\x0a")
        bh = lay.button_h
        bw = lay.button_w
        edge = 1 if sw else 0  # in the top row, blue on the felt: no room for an edge
        self.undo_button = widgets.Button(lay.button_x(HIT_UNDO), lay.button_top(HIT_UNDO), bw,
                                          bh, "Undo", bid=HIT_UNDO, scale=ts, border=edge,
                                          group=g)
        self.menu_button = widgets.Button(lay.button_x(HIT_MENU), lay.button_top(HIT_MENU), bw,
                                          bh, "Menu", bid=HIT_MENU, scale=ts, border=edge,
                                          group=g)
        # Finish, built when it first shows (update): late in a game, if at all; the table's
        # heap until then is the one the long undo histories grow in.
        self.finish_button = None
        self.group = g
        # Dead end: a panel beside the table that covers no card, placed when the dead end
        # comes (dead_box): under the columns where their feet leave room, else in the
        # strip where Finish would be. Its group here, its edge, fill and words built at
        # the first dead end (_place_dead): most tables never meet one, and the table's
        # heap is the one the long undo histories grow in.
        self.dead_group = dg = displayio.Group()
        self.dead_edge = None
        dg.hidden = True
        g.append(dg)
        # No strip: the counter, Finish and the dead-end message beside the cards.
        self.badge = None
        self.narrow = None
        if not sw:
            from freecell_mc.ui import narrow

            self.narrow = narrow
            narrow.build(self, g)
        self.dead_box = None  # (x, y, w, h) of the panel while it is shown
        self._moves_shown = -1
        self._finish_shown = None
        self._dead_shown = None
        self._undo_shown = None

    def update(self, game):
        """Show game's move counter, Finish when it applies, and the dead-end message."""
        m = game.moves
        if m != self._moves_shown:
            self._moves_shown = m
            if m > 9999:
                m = 9999
            d = self._digits
            c = self.counter
            # Left-aligned digits, blanks (tile 10) after; tiles by flat index, since c[i, 0]
            # would build a tuple per digit.
            n = 1 if m < 10 else 2 if m < 100 else 3 if m < 1000 else 4
            for i in range(4):
                v = (m // 10 ** (n - 1 - i)) % 10 if i < n else 10
                if d[i] != v:
                    d[i] = v
                    c[i] = v
        # Undo greys out while it has nothing to take back (a fresh deal, a game restored
        # after a restart): a button that looks ready and does nothing reads as broken.
        can = game.history_len() > 0
        if can != self._undo_shown:
            self._undo_shown = can
            self.undo_button.set_enabled(can)
        won = game.won()
        fin = (not won) and game.finish_available()
        # Finish and the dead-end panel, when first wanted, are built by build(), which the
        # table's tick calls in the same poll: here, under the move that wants them, their
        # build would deepen the game's deepest path on the Python stack.
        if fin != self._finish_shown:
            self._finish_shown = fin
            if self.finish_button is not None:
                self.finish_button.hidden = not fin
        dead = (not fin) and (not won) and game.dead_end()
        # A change of position (a move, an undo, another game loaded) also closes the
        # whole message a tap opened: the panel goes back to its place for the position.
        if dead != bool(self._dead_shown) or self._dead_shown == _DEAD_OPEN:
            self._dead_shown = dead
            ready = self.dead_edge is not None
            if dead and ready:
                self._place_dead(game)
            else:
                self.dead_box = None
            self.dead_group.hidden = not (dead and ready)
        if self.narrow is not None:
            self.narrow.update(self, game)

    def _place_dead(self, game, words=None):
        """Size the dead-end panel and its words to the room the columns leave now.

        words: open the whole message (words) over the columns instead, where it covers
        cards until the next tap; dead_box keeps the panel's own place.
        """
        if words is None:
            x, y, w, h, text = dead_box(self.lay, game)
            self.dead_box = (x, y, w, h)
        else:
            lay = self.lay
            ts = lay.text_scale
            w = lay.status_x - 8
            text = widgets.wrap(words, (w - 8) // (FONT_W * ts))
            h = widgets.text_height(text, ts) + 8
            x = 4
            y = lay.col_y + (lay.height - lay.col_y - h) // 2
        e = self.dead_edge
        e.x = x
        e.y = y
        e.width = w
        e.height = h
        f = self.dead_fill
        f.x = x + 2
        f.y = y + 2
        f.width = w - 4
        f.height = h - 4
        self.dead_text.set(text)
        self.dead_text.move(x + w // 2, y + h // 2)
        # Fewer words than the whole message: drawn as a button, because it is one (tap).
        if words is None and len(text) != len(DEAD_END):
            e.pixel_shader = widgets.solid(widgets.BORDER)
            f.pixel_shader = widgets.solid(widgets.FILL)
        else:
            e.pixel_shader = widgets.solid(cardart.FELT_LINE)
            f.pixel_shader = widgets.solid(cardart.FELT_DARK)

    def build(self, game):
        """Build and show Finish or the dead-end panel, where update() wants one not built
        yet (the table's tick calls it: a build a frame shallower than a move's)."""
        lay = self.lay
        if self._finish_shown and self.finish_button is None:
            sw = lay.status_w
            x = lay.button_x(HIT_FINISH)
            self.finish_button = b = widgets.Button(
                x, lay.button_top(HIT_FINISH), lay.button_w if sw else lay.width - x,
                lay.button_h if sw else lay.target, "Finish", bid=HIT_FINISH,
                scale=lay.text_scale, border=1 if sw else 0, group=self.group)
            b.set_state(widgets.HIGHLIGHT)
        if self._dead_shown and self.dead_edge is None:
            dg = self.dead_group
            self.dead_edge = widgets.rect(0, 0, 1, 1, cardart.FELT_LINE)
            self.dead_fill = widgets.rect(0, 0, 1, 1, cardart.FELT_DARK)
            self.dead_text = widgets.Text("", 0, 0, scale=lay.text_scale, anchor=(0.5, 0.5),
                                          color=cardart.TEXT)
            dg.append(self.dead_edge)
            dg.append(self.dead_fill)
            dg.append(self.dead_text.group)
            self._place_dead(game)
            dg.hidden = False
        if self.narrow is not None:
            self.narrow.update(self, game)

    def tap(self, x, y, game):
        """Open the whole dead-end message on a tap on its shorter words, close it on the
        next tap; return True if the tap was the message's (it then does nothing else)."""
        shown = self._dead_shown
        if not shown or self.dead_edge is None:
            return False  # none, or not built before this poll's tick
        if shown == _DEAD_OPEN:
            self._dead_shown = True
            self._place_dead(game)
            return True
        bx, by, bw, bh = self.dead_box
        if not (bx <= x < bx + bw and by <= y < by + bh):
            return False
        if len(self.dead_text.text) == len(DEAD_END):
            return False  # the whole message is there already (wrapping keeps its length)
        self._dead_shown = _DEAD_OPEN
        self._place_dead(game, DEAD_END)
        return True

    @property
    def dead_end_shown(self):
        """True while the dead-end message is on screen."""
        return bool(self._dead_shown)

    @property
    def finish_shown(self):
        """True while the Finish button is on screen."""
        return bool(self._finish_shown)


def dead_box(lay, game):
    """Return (x, y, w, h, words) of the dead-end panel: beside the cards, never over one.

    The whole message where the feet of neighbouring columns leave room for it at the
    text size, at the bottom edge; else (long columns, or a panel as dense as the Pynt's,
    where the message needs more room than the table ever leaves) its first sentence
    there, with "Tap for more." where that fits too; else the strip between the counter
    and Undo, with as many of those words as fit: Finish never shows at a dead end, so
    that place is free. With no strip, "No moves" under the columns too, else "Stuck" in
    the top row between the cells and Undo, over the foundations' block, which no dead
    end changes. Fewer words than the whole message are a button (a tap on them opens
    the whole message, Strip.tap): a target tall and wide at least.
    """
    for words in (DEAD_END, DEAD_MORE, DEAD_SHORT, DEAD_SHORTEST):
        if words is DEAD_SHORTEST and lay.status_w:
            break
        box = _under_columns(lay, game, words)
        if box is not None:
            return box
    if not lay.status_w:
        x = 4 * lay.top_pitch
        return x, 0, lay.button_x0 - 2 - x, lay.col_y, DEAD_STUCK
    ts = lay.text_scale
    x = lay.button_x0
    w = lay.button_w
    top = lay.counter_y + 10 * lay.digit_scale + 4
    room = lay.button_top(HIT_UNDO) - 2 - top
    for words in (DEAD_END, DEAD_MORE, DEAD_SHORT, DEAD_SHORTEST):
        # Only the 2-pixel edge around the text: the font's cell has blank rows of its own,
        # and a pixel more would leave the Titano's strip "No moves" for "No moves left.".
        text = widgets.wrap(words, (w - 6) // (FONT_W * ts))
        h = widgets.text_height(text, ts) + 4
        if words is not DEAD_END and h < lay.target:
            h = lay.target
        if h <= room and widgets.text_width(text, ts) <= w - 6:
            break
    return x, top + (room - h) // 2, w, h, text


def _under_columns(lay, game, words):
    """Return the box under the columns' feet that holds words with the most room, or None.

    Fewer words than the whole message make a button: a target tall and wide at least.
    """
    ts = lay.text_scale
    cw = FONT_W * ts
    least = 0 if words is DEAD_END else lay.target
    best = None
    for a in range(8):
        low = lay.col_y
        for b in range(a, 8):
            low = max(low, lay.column_bottom(game.column_len(b)))
            x = lay.column_x(a)
            w = lay.column_x(b) + lay.card_w - x
            text = widgets.wrap(words, (w - 8) // cw)
            if widgets.text_width(text, ts) > w - 8 or w < least:
                continue
            h = widgets.text_height(text, ts) + 8
            if h < least:
                h = least
            # At least 2 pixels of felt between the panel and the longest column above it;
            # of the boxes that fit, the one with the most felt to spare, then the widest.
            spare = lay.height - 1 - low - h
            if spare >= 2 and (best is None or (spare, w) > (best[0], best[3])):
                best = (spare, x, lay.height - 1 - h, w, h, text)
    return None if best is None else best[1:]


class TableView:
    """The display objects of the playing screen of an App, kept in step with its game."""

    def __init__(self, app, four_colour=False, art=None):
        """Build every display object of the table for app's display size (art: reuse it)."""
        self.app = app
        cells = app.game.cells
        self.layout = lay = Layout(app.width, app.height, cells, app.ppcm)
        if not lay.status_w:
            # Its code first, before the table's objects: the heap keeps it for good.
            from freecell_mc.ui import narrow  # noqa: F401  (Strip takes it up)
        if art is None:
            # Drawn by a module of its own: its bit patterns and drawing code (some 3.8 KB on
            # the board) are needed once, and the App drops the module when the art is drawn.
            from freecell_mc.ui import cardfaces

            art = cardart.CardArt(lay, four_colour, displayio)
            cardfaces.draw(art, lay)
        else:
            art.set_four_colour(four_colour)
        self.art = art
        tw = lay.tile_w
        th = lay.tile_h
        self.group = g = displayio.Group()
        g.append(widgets.rect(0, 0, lay.width, lay.height, cardart.FELT))
        # Empty-slot outlines: 8 columns, 4 cells, 4 foundations (slot order).
        self.outlines = []
        self._outline_lit = bytearray(16)
        for slot in range(16):
            rows = CARD_ROWS if slot < SLOT_CELL else lay.top_rows
            if slot >= SLOT_FOUND and lay.found_x:
                rows = 2  # the foundations' block: small cards
            t = displayio.TileGrid(
                art.sheet,
                pixel_shader=art.slot_palettes[0],
                width=2,
                height=rows,
                tile_width=tw,
                tile_height=th,
                default_tile=T_LEFT,
                x=lay.slot_x(slot),
                y=lay.slot_y(slot),
            )
            # Tiles by flat index (2 a row): t[1, r] would make a tuple of garbage a tile.
            t[0] = T_TOP_LEFT
            t[1] = T_TOP_RIGHT if slot < SLOT_FOUND else T_SUIT + slot - SLOT_FOUND
            for r in range(1, rows):
                t[2 * r + 1] = T_RIGHT
            t[2 * rows - 2] = T_BOTTOM_LEFT
            t[2 * rows - 1] = T_BOTTOM_RIGHT
            self.outlines.append(t)
            g.append(t)
        self.cards_group = cg = displayio.Group()
        self.cards = []
        for cid in range(52):
            t = displayio.TileGrid(
                art.sheet,
                pixel_shader=art.palettes[cid & 3],
                width=2,
                height=CARD_ROWS,
                tile_width=tw,
                tile_height=th,
                default_tile=T_CLEAR,
            )
            t.hidden = True
            self.cards.append(t)
            cg.append(t)
        g.append(cg)
        # The lens (narrow.py), where long columns show a smaller index: the column's own
        # cards fanned over a patch of felt kept at the bottom of their group until then.
        self.lens_col = -1
        self.lens_bg = None
        if lay.tight_h and not lay.status_w:
            self.lens_bg = widgets.rect(0, 0, 1, 1, cardart.FELT_LINE)
            self.lens_bg.hidden = True
            cg.insert(0, self.lens_bg)
        # Shadow of what each card shows, so displayio is only touched on a change.
        self._slot = bytearray(b"\xff" * 52)
        self._index = bytearray(52)
        self._mode = bytearray(b"\xff" * 52)
        self._pal = bytearray(52)
        self._hidden = bytearray(b"\x01" * 52)
        # Signed 16-bit: 104 bytes each where a list of 52 ints takes 224.
        self._x = array.array("h", [0]) * 52
        self._y = array.array("h", [0]) * 52
        self.buf = bytearray(20)  # a column's cards (Game.column_cards), for the table and the lens
        self.strip = Strip(lay, art, g)
        # Selection: the slot and the number of cards held; the lit target mask.
        self.sel_src = -1
        self.sel_n = 0
        self.lit = 0
        self.set_cells(cells)
        self.sync()

    def set_cells(self, cells):
        """Show `cells` free cells; the others vanish from the table."""
        self.layout.cells = cells
        for i in range(4):
            t = self.outlines[SLOT_CELL + i]
            h = i >= cells
            if t.hidden != h:
                t.hidden = h

    def set_four_colour(self, on):
        """Switch between the red/black and the four-colour deck."""
        self.art.set_four_colour(on)

    # -- drawing the position ------------------------------------------------------------

    def draw(self, cid, x, y, slot, index, raise_it, mode=_MODE_COLUMN):
        """Draw card cid at (x, y) in slot as card `index`: a column card (the full index, as
        the lens shows one too), a tight one or a top-row card (mode); raise_it lifts it to
        the top of the cards. (Named as cardfaces.draw is: a name the board has interned.)"""
        t = self.cards[cid]
        if self._hidden[cid]:
            self._hidden[cid] = 0
            t.hidden = False
        if raise_it:
            # It lands over cards drawn above it: lift it to the top of the z-order.
            cg = self.cards_group
            cg.remove(t)
            cg.append(t)
        self._slot[cid] = slot
        self._index[cid] = index
        if self._x[cid] != x:
            self._x[cid] = x
            t.x = x
        if self._y[cid] != y:
            self._y[cid] = y
            t.y = y
        old = self._mode[cid]
        if old != mode:
            self._mode[cid] = mode
            r = (cid >> 2) & 15  # rank - 1
            s = cid & 3
            # Constant tuple subscripts: no tuple is built per assignment.
            if mode == _MODE_TIGHT:
                t[0, 0] = T_RANK_TIGHT + r
                t[1, 0] = T_SUIT_TIGHT + s
            else:
                t[0, 0] = T_RANK + r
                t[1, 0] = T_SUIT + s
            # Between a roomy and a tight column only the index changes.
            if old < _MODE_TOP and mode < _MODE_TOP:
                return
            if mode == _MODE_SMALL:
                t[0, 1] = T_BOTTOM_LEFT
                t[1, 1] = T_BOTTOM_RIGHT
                t[0, 2] = T_CLEAR
                t[1, 2] = T_CLEAR
                t[0, 3] = T_CLEAR
                t[1, 3] = T_CLEAR
            # A card in a cell leaves out the plain strip when the top row has no room for it.
            elif mode != _MODE_TOP or self.layout.top_rows == CARD_ROWS:
                t[0, 1] = T_LEFT
                t[1, 1] = T_RIGHT
                t[0, 2] = T_BIG_RANK + r
                t[1, 2] = T_BIG_SUIT + s
                t[0, 3] = T_BIG_RANK_LOW + r
                t[1, 3] = T_BIG_SUIT_LOW + s
            else:
                t[0, 1] = T_BIG_RANK + r
                t[1, 1] = T_BIG_SUIT + s
                t[0, 2] = T_BIG_RANK_LOW + r
                t[1, 2] = T_BIG_SUIT_LOW + s
                t[0, 3] = T_CLEAR
                t[1, 3] = T_CLEAR

    def _hide(self, cid):
        """Hide card cid (a foundation card under the top one)."""
        if not self._hidden[cid]:
            self._hidden[cid] = 1
            self.cards[cid].hidden = True

    def sync(self, slots=_FULL, restack=False):
        """Redraw the cards of the slots in the bit mask `slots` (all: every slot) from the
        game's position.

        restack lifts every card in order (after a new deal or a loaded game, when a card
        may keep its slot but not its place in the stack).
        """
        game = self.app.game
        lay = self.layout
        buf = self.buf
        col_y = lay.col_y
        cards = self.cards
        cg = self.cards_group
        if self.lens_col >= 0:
            # The lens closes, its column back in place: any change of position closes it.
            slots |= self.strip.narrow.close_lens(self)
        for c in range(8):
            if not (slots >> c) & 1:
                continue
            n = game.column_cards(c, buf)
            ov = lay.overlap(n)
            x = lay.column_x(c)
            covered = _MODE_TIGHT if lay.tight(n) else _MODE_COLUMN
            lift = restack
            for i in range(n):
                cid = buf[i] - 4
                if not lift and i and self._slot[cid] != c:
                    # It landed on the column's top card: lifted (it and the cards landing
                    # with it) only where it lies under that card in the z-order.
                    lift = cg.index(cards[cid]) < cg.index(cards[buf[i - 1] - 4])
                self.draw(cid, x, col_y + i * ov, c, i, lift,
                          covered if i < n - 1 else _MODE_COLUMN)
        top_y = lay.top_y
        for i in range(4):
            slot = SLOT_CELL + i
            if (slots >> slot) & 1:
                b = game.top(slot)
                if b:
                    # The top row's places may touch (the Pynt's): a card landing there is
                    # lifted, the newest over its neighbours.
                    self.draw(b - 4, lay.slot_x(slot), top_y, slot, 0,
                              restack or self._slot[b - 4] != slot, _MODE_TOP)
        found = _MODE_SMALL if lay.found_x else _MODE_TOP
        for s in range(4):
            slot = SLOT_FOUND + s
            if not (slots >> slot) & 1:
                continue
            top = game.top(slot) >> 2  # the foundation's top rank, 0 when empty
            x = lay.slot_x(slot)
            # Only ranks up to the top are here: a card above it has gone to a slot whose
            # own sync shows it.
            for r in range(1, top + 1):
                cid = ((r - 1) << 2) | s
                if r == top:
                    self.draw(cid, x, lay.slot_y(slot), slot, r - 1,
                              restack or self._slot[cid] != slot, found)
                else:
                    self._hide(cid)
        self.strip.update(game)

    # -- highlights ------------------------------------------------------------------

    def _paint(self, cid, state):
        """Give card cid the palette for state (P_NORMAL, P_HELD or P_LIT)."""
        if self._pal[cid] != state:
            self._pal[cid] = state
            self.cards[cid].pixel_shader = self.art.palettes[state * 4 + (cid & 3)]

    def _light_outline(self, slot, on):
        """Light or unlight the empty-slot outline of slot."""
        if self._outline_lit[slot] != on:
            self._outline_lit[slot] = on
            self.outlines[slot].pixel_shader = self.art.slot_palettes[on]

    def clear_selection(self):
        """Drop the held card and unlight every target."""
        self.sel_src = -1
        self.sel_n = 0
        self.lit = 0
        pal = self._pal
        for cid in range(52):
            if pal[cid]:
                self._paint(cid, P_NORMAL)
        lit = self._outline_lit
        for slot in range(16):
            if lit[slot]:
                self._light_outline(slot, 0)

    def select(self, src, n):
        """Hold the bottom n cards of src and light every slot they may go to."""
        self.clear_selection()
        game = self.app.game
        self.sel_src = src
        self.sel_n = n
        if src < SLOT_CELL:
            cnt = game.column_cards(src, self.buf)
            for i in range(cnt - n, cnt):
                self._paint(self.buf[i] - 4, P_HELD)
        else:
            self._paint(game.top(src) - 4, P_HELD)
        # Only where the whole held run may land (SPEC 4): a run longer than can be
        # carried lights nothing, and that absence is the rule's answer.
        mask = game.targets(src, n)
        self.lit = mask
        for slot in range(16):
            if (mask >> slot) & 1:
                b = game.top(slot)
                if b:
                    self._paint(b - 4, P_LIT)
                else:
                    self._light_outline(slot, 1)
