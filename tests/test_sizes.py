# SPDX-License-Identifier: MIT
"""Every button, text, digit image and card index of every screen, in every state it can be
in, measured on the panel in millimetres, on all three boards.

The real App runs each screen on the simulator's framebuffer display with the panel density
the game finds for its board as the board reports itself, with no settings.toml
(screen_states.panel_ppcm: the Pynt says "pyportal" and lacks the PyPortal's ADT7410): the
PyPortal (320x240, 49 px per cm), the Pynt (320x240, 66) and the Titano (480x320, 65). A
state is reached the way the game reaches it (a move made, a question asked, a code typed,
a calendar on a given day), then everything on screen is found by walking the displayio
tree:

- a text (a Group of TileGrids over the built-in font): its capital height is the font's
  capital times its scale;
- a digit image (a TileGrid over the card art's counter digits: the move counter, the
  calendar's days, the keypad's digits) and a card index (the first tile row of a card or
  a foundation's outline over the card sheet): their ink measured in the bitmap itself;
- a button from the screen's own records, the table's by probing its hit test, a calendar
  day from the cell the screen says it has (on the page shown), all of which takes its taps.

Each must be inside the screen, no two texts may overlap, a text stands clear of every
button but its own, a button is at least 7 mm tall and 7 mm wide, and every text is at
least 1.6 mm tall. A card index may be smaller only in a column longer than 13 cards whose
strips cannot hold the full one, and then it still shows whole.
"""

import contextlib

import displayio
import pytest
import terminalio

from bench.ui import is_text
from freecell_mc.rules import cards
from freecell_mc.ui import cardart, layout
from freecell_mc.ui.layout import HIT_FINISH, HIT_MENU, HIT_UNDO, SLOT_CELL, SLOT_FOUND
from screen_states import BOARDS, STATES, PanelBoard

CLEAR = 2  # pixels of felt between a text and a button that is not its own
ROOMY = 13  # a column up to this many cards shows full-size indexes (docs/layout.md)
TIGHT_MIN = 7  # pixels: the smallest index glyph that still reads (a long column's)


# -- what a screen shows -------------------------------------------------------------

_ink_cache = {}


def _sheet_box(sheet, tile, tw, th, ink=0):
    """Return the (x1, y1, x2, y2) of the ink of one tile of a sheet, or None if blank.

    ink is the pixel value that is ink (0: any but 0, as in a font's or the digits' sheet;
    the card sheet's ink is 3, its face 1 and border 2).
    """
    key = (id(sheet), tile, tw, th, ink)
    if key in _ink_cache:
        return _ink_cache[key]
    per_row = sheet.width // tw
    ox = (tile % per_row) * tw
    oy = (tile // per_row) * th
    xs = []
    ys = []
    for y in range(th):
        for x in range(tw):
            v = sheet[ox + x, oy + y]
            if (v == ink) if ink else v:
                xs.append(x)
                ys.append(y)
    box = (min(xs), min(ys), max(xs) + 1, max(ys) + 1) if xs else None
    _ink_cache[key] = box
    return box


def cap_height():
    """Return the ink rows of the capital H in the built-in font (from its glyph sheet)."""
    font = terminalio.FONT
    g = font.get_glyph(ord("H"))
    box = _sheet_box(font.bitmap, g.tile_index, g.width, g.height)
    return box[3] - box[1]


def _union(a, b):
    if a is None:
        return b
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _grid_ink(tg, sheet, tw, th, row=None, skip=()):
    """Return the ink box of a TileGrid's tiles in its own pixels (row: that row only)."""
    box = None
    rows = range(tg.height) if row is None else (row,)
    for r in rows:
        for k in range(tg.width):
            t = tg[k, r]
            if t in skip:
                continue
            ink = _sheet_box(sheet, t, tw, th)
            if ink is not None:
                box = _union(box, (k * tw + ink[0], r * th + ink[1], k * tw + ink[2],
                                   r * th + ink[3]))
    return box


def _text_of(group):
    """Return (text, ink box in the group's own pixels) of a Text's group."""
    sheet = terminalio.FONT.bitmap
    tw, th = terminalio.FONT.get_bounding_box()
    lines = []
    box = None
    for g in group:
        lines.append("".join(chr(0x20 + g[k, 0]) for k in range(g.width)).rstrip())
        ink = _grid_ink(g, sheet, tw, th)
        if ink is not None:
            box = _union(box, (g.x + ink[0], g.y + ink[1], g.x + ink[2], g.y + ink[3]))
    return "\n".join(lines), box


def shown(root, art):
    """Return [(kind, text, box on screen, capital px, object)] for what root shows.

    kind is "text" (a Text), "glyphs" (one of the short texts side by side in a group of
    daily.glyph_row or keypad.glyphs_at) or "digits" (a TileGrid of the counter's digits).
    """
    out = []
    digits = art.digits if art is not None else None

    def walk(obj, x, y, s):
        if obj.hidden:
            return
        if isinstance(obj, displayio.Group):
            gx = x + obj.x * s
            gy = y + obj.y * s
            gs = s * obj.scale
            if is_text(obj) and any(obj[i].x != obj[0].x for i in range(len(obj))):
                # Short texts side by side in one scaled group (daily.glyph_row and
                # keypad.glyphs_at: the weekdays, the keypad's digits): each is a text of its
                # own.
                for i in range(len(obj)):
                    walk_grid(obj[i], gx, gy, gs)
                return
            if is_text(obj):
                text, box = _text_of(obj)
                if box is not None:
                    out.append(("text", text, (gx + box[0] * gs, gy + box[1] * gs,
                                               gx + box[2] * gs, gy + box[3] * gs),
                                cap_height() * gs, obj))
                return
            for child in obj:
                walk(child, gx, gy, gs)
        elif isinstance(obj, displayio.TileGrid) and digits is not None and obj.bitmap is digits:
            ink = _grid_ink(obj, digits, obj.tile_width, obj.tile_height, skip=(10,))
            if ink is None:
                return
            text = "".join(str(obj[k, 0]) if obj[k, 0] < 10 else "" for k in range(obj.width))
            tx = x + obj.x * s
            ty = y + obj.y * s
            out.append(("digits", text, (tx + ink[0] * s, ty + ink[1] * s, tx + ink[2] * s,
                                         ty + ink[3] * s), (ink[3] - ink[1]) * s, obj))

    def walk_grid(tg, x, y, s):
        sheet = terminalio.FONT.bitmap
        tw, th = terminalio.FONT.get_bounding_box()
        ink = _grid_ink(tg, sheet, tw, th)
        if ink is None:
            return
        text = "".join(chr(0x20 + tg[k, 0]) for k in range(tg.width)).rstrip()
        tx = x + tg.x * s
        ty = y + tg.y * s
        out.append(("glyphs", text, (tx + ink[0] * s, ty + ink[1] * s, tx + ink[2] * s,
                                     ty + ink[3] * s), cap_height() * s, tg))

    walk(root, 0, 0, 1)
    return out


class Day:
    """A day of the calendar as a target: its cell, its number, the frame the number keeps
    clear of (the cells are tiles of a grid, not buttons)."""

    caption = None

    def __init__(self, i, box, label, text):
        self.i = i
        self.x, self.y, self.w, self.h = box
        self.label = label  # the digit tiles or the Text's group
        self.text = text
        self._border = 2  # daily.cell_sheet's frame, 2 px at either zoom


class Panel:
    """The dead-end panel where it shows fewer words than the whole message: a button (a
    tap opens the whole message), with its words as its caption."""

    hidden = False

    def __init__(self, strip):
        self.x, self.y, self.w, self.h = strip.dead_box
        self.caption = strip.dead_text
        self.text = strip.dead_text.text
        self._border = 2  # its edge, a rectangle under the fill


def buttons_of(screen):
    """Return the visible targets of a screen: the table's three buttons and the dead-end
    panel where it is one, or the screen's buttons and the calendar's days on the page
    shown."""
    if screen.name == "table":
        st = screen.strip
        bs = [st.finish_button, st.undo_button, st.menu_button]
        from freecell_mc.ui.tableview import DEAD_END

        if (st.dead_end_shown and not st.dead_group.hidden and st.dead_box is not None
                and st.dead_text.text.replace("\n", " ") != DEAD_END):
            bs.append(Panel(st))
    else:
        bs = list(screen.buttons)
    bs = [b for b in bs if b is not None and not b.hidden]  # Finish: built when it shows
    if screen.name == "daily":
        for i in range(screen.cal.n):
            box = screen.day_box(i)
            if box is not None:
                bs.append(Day(i, box, screen.labels[i], screen.cal.label(i)))
    return bs


@contextlib.contextmanager
def _in_state(board_name, name):
    """The App on board_name's panel, brought into the state called name; closed after."""
    board = PanelBoard(board_name)
    try:
        STATES[name](board)
        yield board
    finally:
        board.close()


def _overlap(a, b, clear=0):
    return not (a[2] + clear <= b[0] or b[2] + clear <= a[0] or a[3] + clear <= b[1]
                or b[3] + clear <= a[1])


def _mm(px, ppcm):
    return "%d px = %.2f mm" % (px, px * 10 / ppcm)


def problems(board, app):
    """Return every way the screen shown breaks the rules (empty when it keeps them all)."""
    s = app.screen
    ppcm = app.hw.ppcm
    need_text = layout.mm_px(layout.TEXT_MM10, ppcm)
    need_target = layout.mm_px(layout.TARGET_MM10, ppcm)
    w, h = app.width, app.height
    bad = []
    art = app.art if app.art is not None else getattr(app.table, "art", None)
    items = shown(s.group, art)
    bs = buttons_of(s)
    captions = {id(b.caption.group): b for b in bs if b.caption is not None}
    for b in bs:
        if isinstance(b, Day):
            # A day's label: its digits or Text, or both in a group (the month under the
            # day's digits).
            captions[id(b.label)] = b
            if isinstance(b.label, displayio.Group) and not is_text(b.label):
                captions.update((id(o), b) for o in b.label)
    for kind, text, box, cap, obj in items:
        x1, y1, x2, y2 = box
        if cap < need_text:
            bad.append("%s %r is %s (needs 1.6 mm, %d px)" % (kind, text, _mm(cap, ppcm),
                                                                need_text))
        if x1 < 0 or y1 < 0 or x2 > w or y2 > h:
            bad.append("%s %r runs off the screen: %s" % (kind, text, box))
        b = captions.get(id(obj))
        if b is None and kind != "text":
            # A day or a key drawn in digit or glyph tiles is the label of the button it
            # stands on.
            for c in bs:
                if c.caption is None and _overlap(box, (c.x, c.y, c.x + c.w, c.y + c.h)):
                    b = c
        if b is not None:
            # A caption stands clear of its button's border: a pixel of fill all round.
            e = b._border + 1
            if not (b.x + e <= x1 and x2 <= b.x + b.w - e and b.y + e <= y1
                    and y2 <= b.y + b.h - e):
                bad.append("%r does not fit its button %r: ink %s, button %s" % (
                    text, b.text, box, (b.x, b.y, b.w, b.h)))
            continue
        for c in bs:
            if _overlap(box, (c.x, c.y, c.x + c.w, c.y + c.h), CLEAR):
                bad.append("%s %r touches the button %r" % (kind, text, c.text))
    for i in range(len(items)):
        for j in range(i + 1, len(items)):
            if _overlap(items[i][2], items[j][2]):
                bad.append("%r overlaps %r" % (items[i][1], items[j][1]))
    seen = {id(obj) for _, _, _, _, obj in items}
    for b in bs:
        if not isinstance(b, Day):
            continue
        parts = [b.label]
        if isinstance(b.label, displayio.Group) and not is_text(b.label):
            parts = list(b.label)
        if not any(id(o) in seen for o in parts):
            bad.append("day %r shows no number" % b.text)
        # A tap anywhere in its cell plays it: the hit test answers at the four corners.
        corners = ((b.x, b.y), (b.x + b.w - 1, b.y), (b.x, b.y + b.h - 1),
                   (b.x + b.w - 1, b.y + b.h - 1))
        if any(s.day_at(x, y) != b.i for x, y in corners):
            bad.append("day %r does not take the taps of its whole cell" % b.text)
    for b in bs:
        what = "day" if isinstance(b, Day) else "button"
        if b.h < need_target:
            bad.append("%s %r is %s tall (needs 7 mm, %d px)" % (what, b.text, _mm(b.h, ppcm),
                                                                  need_target))
        if b.w < need_target:
            bad.append("%s %r is %s wide (needs 7 mm, %d px)" % (what, b.text, _mm(b.w, ppcm),
                                                                  need_target))
        if b.x < 0 or b.y < 0 or b.x + b.w > w or b.y + b.h > h:
            bad.append("%s %r runs off the screen" % (what, b.text))
    for i in range(len(bs)):
        for j in range(i + 1, len(bs)):
            a, b = bs[i], bs[j]
            if _overlap((a.x, a.y, a.x + a.w, a.y + a.h), (b.x, b.y, b.x + b.w, b.y + b.h)):
                bad.append("buttons %r and %r overlap" % (a.text, b.text))
    if not items:
        bad.append("no text found")
    if s.name == "calibration":
        # A cross is a target too: no text and no button may cover any of the three.
        from freecell_mc.ui.screens.calibration import _ARM

        for x, y in s.targets:
            box = (x - _ARM, y - _ARM, x + _ARM + 1, y + _ARM + 1)
            for _kind, text, tbox, _cap, _obj in items:
                if _overlap(box, tbox, CLEAR):
                    bad.append("the cross at %d,%d touches %r" % (x, y, text))
            for b in bs:
                if _overlap(box, (b.x, b.y, b.x + b.w, b.y + b.h), CLEAR):
                    bad.append("the cross at %d,%d touches the button %r" % (x, y, b.text))
    if s.name == "table":
        bad += table_problems(app, need_text, need_target)
    return bad


def table_problems(app, need_text, need_target):
    """Return what breaks the rules among the table's card indexes and tap targets."""
    table = app.table
    lay = table.layout
    art = table.art
    sheet = art.sheet
    tw, th = lay.tile_w, lay.tile_h
    game = app.game
    ppcm = app.hw.ppcm
    bad = []
    buf = bytearray(20)

    def index_ink(tg, col):
        return _sheet_box(sheet, tg[col, 0], tw, th, 3)

    for c in range(8):
        if c == table.lens_col:
            continue  # fanned in the lens, measured there (lens_problems)
        n = game.column_cards(c, buf)
        grids = [table.cards[buf[i] - 4] for i in range(n)]
        before = len(bad)
        for i, tg in enumerate(grids):
            if len(bad) > before:
                break  # one card a column says enough
            name = cards.card_name(buf[i])
            strip = grids[i + 1].y - tg.y if i < n - 1 else lay.height - tg.y
            for col, what in ((0, "rank"), (1, "suit")):
                ink = index_ink(tg, col)
                if ink is None:
                    bad.append("card %s of column %d shows no %s" % (name, c + 1, what))
                    continue
                if ink[3] > strip:
                    bad.append("the %s of card %s (%d of %d in column %d) is cut: ink to %d, "
                               "strip %d" % (what, name, i + 1, n, c + 1, ink[3], strip))
                px = ink[3] - ink[1]
                if px >= need_text:
                    continue
                # Smaller only where it must be: a long column whose strip cannot hold the
                # full-size index (which the same card shows wherever there is room).
                full = _sheet_box(sheet, (cardart.T_RANK + ((buf[i] - 4) >> 2)) if col == 0
                                  else (cardart.T_SUIT + ((buf[i] - 4) & 3)), tw, th, 3)
                if n <= ROOMY or full[3] <= strip or px < TIGHT_MIN:
                    bad.append("the %s of card %s (%d of %d in column %d) is %s (needs 1.6 mm, "
                               "%d px; strip %d)" % (what, name, i + 1, n, c + 1, _mm(px, ppcm),
                                                     need_text, strip))
        # Every card of the movable run takes the taps on its own strip.
        run = game.run_len(c)
        for i in range(n - run, n):
            y0 = grids[i].y
            y1 = grids[i + 1].y if i < n - 1 else lay.height
            hits = {lay.hit_column(y, n, n - run) for y in range(y0, y1)}
            if hits != {i}:
                bad.append("card %d of column %d (run of %d) is hit as %s" % (i + 1, c + 1, run,
                                                                            sorted(hits)))
    # Cards in cells and on foundations, and the foundations' empty outlines: whole index.
    for slot in range(SLOT_CELL, SLOT_FOUND + 4):
        b = game.top(slot)
        if slot < SLOT_FOUND and slot - SLOT_CELL >= game.cells:
            continue
        tg = table.cards[b - 4] if b else table.outlines[slot]
        for col in (0, 1):
            ink = index_ink(tg, col)
            if ink is None:
                continue  # an empty cell's outline has no index
            px = ink[3] - ink[1]
            if px < need_text:
                bad.append("the index of slot %d is %s (needs 1.6 mm)" % (slot, _mm(px, ppcm)))
    # Tap targets: cells and foundations from the top down to the columns, the strip's
    # buttons, and the exposed card of a column as long as FreeCell allows.
    # No place narrower than 5.5 mm (layout._COLUMN_MM10): where the foundations' small
    # cards stand in a block (the Pynt), a held card takes the block whole as its own
    # foundation (table.py), so the block is the place measured.
    need_place = layout.mm_px(layout._COLUMN_MM10, ppcm)
    slots = list(range(SLOT_CELL, SLOT_CELL + game.cells)) + list(range(SLOT_FOUND, SLOT_FOUND + 4))
    for slot in slots:
        x, y = lay.tap_point(slot)
        if lay.found_x and slot >= SLOT_FOUND:
            ok = range(SLOT_FOUND, SLOT_FOUND + 4)
            x = lay.found_x + lay.card_w + 1
        else:
            ok = (slot,)
        got = probe_height(lay, x, 0, ok)
        if got < need_target:
            bad.append("slot %d takes %s of taps (needs 7 mm)" % (slot, _mm(got, ppcm)))
        got = probe_width(lay, x, y, ok)
        if got < need_place:
            bad.append("slot %d takes %s of taps across (needs 5.5 mm)" % (slot, _mm(got, ppcm)))
    for hit, b in ((HIT_FINISH, table.strip.finish_button), (HIT_UNDO, table.strip.undo_button),
                   (HIT_MENU, table.strip.menu_button)):
        if b is None or b.hidden:
            continue
        if hit == HIT_FINISH and not lay.status_w:
            # With no strip Finish stands over the felt where the columns leave it room,
            # and the table asks the button itself: its whole box takes the taps.
            if not all(b.hit(x, y) for x in (b.x, b.x + b.w - 1) for y in (b.y, b.y + b.h - 1)):
                bad.append("Finish does not take the taps of its box")
            continue
        x, _ = lay.button_point(hit)
        got = probe_height(lay, x, lay.button_top(hit), (hit,))
        if got < need_target:
            bad.append("%s takes %s of taps (needs 7 mm)" % (b.text, _mm(got, ppcm)))
    if table.lens_col >= 0:
        bad += lens_problems(app, need_text)
    n = layout.MAX_CARDS
    y = lay.card_y(n - 1, n)
    if lay.height - y < need_target or lay.hit_column(lay.height - 1, n, 0) != n - 1:
        bad.append("the exposed card of 19 takes %s (needs 7 mm)" % _mm(lay.height - y, ppcm))
    if lay.card_y(n - 1, n) + lay.card_h > lay.height:
        bad.append("19 cards run off the screen")
    return bad


def lens_problems(app, need_text):
    """Return what breaks the rules in the open lens: every card of its column in it, rank
    and suit at 1.6 mm, whole in its strip, inside the screen, over every other card and
    under nothing of the strip's."""
    table = app.table
    lay = table.layout
    sheet = table.art.sheet
    tw, th = lay.tile_w, lay.tile_h
    buf = bytearray(20)
    n = app.game.column_cards(table.lens_col, buf)
    grids = [table.cards[b - 4] for b in buf[:n]]
    bg = table.lens_bg
    bad = []
    if bg.hidden or not (0 <= bg.x and bg.x + bg.width <= lay.width and 0 <= bg.y
                         and bg.y + bg.height <= lay.height):
        bad.append("the lens's felt is hidden or off the screen")
    order = list(table.cards_group)
    for i, tg in enumerate(grids):
        # The next card of the same fan covers all but this card's strip.
        below = [g for g in grids[i + 1:] if g.x == tg.x]
        strip = below[0].y - tg.y if below else tg.height * th
        for col in (0, 1):
            ink = _sheet_box(sheet, tg[col, 0], tw, th, 3)
            if ink is None or ink[3] - ink[1] < need_text or ink[3] > strip:
                bad.append("card %d of the lens shows %s in a %d px strip" % (i + 1, ink, strip))
        if not (bg.x <= tg.x and tg.x + 2 * tw <= bg.x + bg.width and bg.y <= tg.y
                and tg.y + tg.height * th <= bg.y + bg.height):
            bad.append("card %d of the lens is off its felt" % (i + 1))
        if order.index(tg) < order.index(bg):
            bad.append("card %d of the lens is under its felt" % (i + 1))
    others = [t for t in table.cards if not t.hidden and t not in grids]
    if any(order.index(t) > order.index(bg) for t in others):
        bad.append("a card of another column lies over the lens")
    st = table.strip
    for o in (st.dead_group, st.finish_button and st.finish_button.group, st.counter):
        if o is not None and not o.hidden:
            bad.append("the strip's %r shows over the lens" % o)
    return bad


def probe_height(lay, x, y0, want):
    """Return how many pixels of the column at x, from y0 down, the hit test gives to one of
    want."""
    y = y0
    while y < lay.height and lay.hit(x, y) in want:
        y += 1
    return y - y0


def probe_width(lay, x, y, want):
    """Return how many pixels of the row at y around x the hit test gives to one of want."""
    a = x
    while a > 0 and lay.hit(a - 1, y) in want:
        a -= 1
    b = x
    while b < lay.width and lay.hit(b, y) in want:
        b += 1
    return b - a


# -- the tests -----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(STATES))
@pytest.mark.parametrize("board_name", sorted(BOARDS))
def test_every_text_and_target_on_every_screen_in_every_state(board_name, name):
    with _in_state(board_name, name) as board:
        app = board.app
        want = name.partition(":")[0]
        assert app.screen.name == want, (name, app.screen.name)
        bad = problems(board_name, app)
        assert not bad, "%s on the %s:\n  %s" % (name, board_name, "\n  ".join(bad))


def shown_in(board_name, name):
    """Return (the screen, what it shows) of a board brought into the state called name."""
    with _in_state(board_name, name) as board:
        app = board.app
        return app.screen, shown(app.screen.group, app.art)


@pytest.mark.parametrize("board_name", sorted(BOARDS))
def test_the_keypad_digits_are_as_large_as_its_other_captions(board_name):
    _, items = shown_in(board_name, "keypad:empty")
    caps = {text: cap for kind, text, box, cap, obj in items}
    inks = {text: box[3] - box[1] for kind, text, box, cap, obj in items}
    digits = [str(d) for d in range(10)]
    assert all(d in caps for d in digits), sorted(caps)
    # The digits' capitals and ink as tall as Del's and OK's, the captions beside them.
    assert {caps[d] for d in digits} == {caps["Del"]} == {caps["OK"]}
    assert min(inks[d] for d in digits) >= inks["Del"]


@pytest.mark.parametrize("name", sorted(n for n in STATES if n.startswith("confirm:")))
@pytest.mark.parametrize("board_name", sorted(BOARDS))
def test_the_question_stands_a_capital_clear_of_its_title(board_name, name):
    s, items = shown_in(board_name, name)
    title = [box for kind, text, box, cap, obj in items if text == "Unfinished game"]
    question = [(box, cap) for kind, text, box, cap, obj in items if obj is s.text.group]
    assert len(title) == 1 and len(question) == 1, items
    (box, cap), = question
    # Felt of at least one of the question's capitals between the title's ink and its
    # own: a heading over the text, not a first line of it.
    assert box[1] - title[0][3] >= cap, (title, box, cap)


def test_the_states_cover_every_screen():
    from freecell_mc.ui.screens import NAMES

    visited = {name.partition(":")[0] for name in STATES}
    assert visited == set(NAMES) | {"table"}


@pytest.mark.parametrize("board_id,size,mm_x10", [
    ("pyportal", (320, 240), 81),
    ("pyportal_pynt", (320, 240), 61),
    ("pyportal_titano", (480, 320), 89),
])
def test_panel_density_follows_the_board(board_id, size, mm_x10):
    ppcm = layout.panel_ppcm(board_id, *size)
    diag = (size[0] ** 2 + size[1] ** 2) ** 0.5
    assert abs(ppcm - diag * 10 / mm_x10) < 1
    # An unknown board at a size gets the densest known panel of that size: bigger targets.
    assert layout.panel_ppcm("unknown", *size) >= ppcm


@pytest.mark.parametrize("board_name", sorted(BOARDS))
def test_every_screen_is_laid_out_for_the_panel_it_runs_on(board_name):
    board = PanelBoard(board_name)
    try:
        app = board.app
        own = app.hw.ppcm
        # Found as the board reports itself: the Pynt's "pyportal" is no 3.2" panel.
        assert own == {"pyportal": layout.PPCM_PYPORTAL, "pynt": layout.PPCM_PYNT,
                       "titano": layout.PPCM_TITANO}[board_name]
        assert app.table.layout.ppcm == own
        from freecell_mc.ui.screens import NAMES

        for name in NAMES:
            if name in ("confirm", "notice", "result"):
                continue  # they need their words; measured in their states above
            app.goto(name)
            assert app.screen.m.ppcm == own, name
    finally:
        board.close()


DEAD_ENDS = sorted(n for n in STATES if n.startswith("table:dead-end"))


@pytest.mark.parametrize("name", DEAD_ENDS)
@pytest.mark.parametrize("board_name", sorted(BOARDS))
def test_the_dead_end_message_covers_no_card_and_no_button(board_name, name):
    from freecell_mc.ui.tableview import DEAD_END, DEAD_MORE, DEAD_STUCK

    with _in_state(board_name, name) as board:
        table = board.app.table
        lay = table.layout
        x, y, w, h = table.strip.dead_box
        box = (x, y, x + w, y + h)
        assert 0 <= x and x + w <= lay.width and 0 <= y and y + h <= lay.height
        words = table.strip.dead_text.text.replace("\n", " ")
        game = board.app.game
        home = {game.top(s) - 4 for s in range(SLOT_FOUND, SLOT_FOUND + 4) if game.top(s)}
        for cid, t in enumerate(table.cards):
            if words == DEAD_STUCK and cid in home:
                # In the top row (no room under the columns, no strip) it stands over the
                # foundations' block, which no dead end changes, and over nothing else.
                assert lay.found_x and y + h <= lay.col_y
                continue
            if not t.hidden:
                # Where there is no strip the panel may stand in the corner over the feet
                # of the last columns, as the counter does, never over an index.
                rows = t.height if lay.status_w else 1
                card = (t.x, t.y, t.x + t.width * t.tile_width, t.y + rows * t.tile_height)
                assert not _overlap(box, card), (t.x, t.y)
        for b in (table.strip.undo_button, table.strip.menu_button):
            assert not _overlap(box, (b.x, b.y, b.x + b.w, b.y + b.h)), b.text
        c = table.strip.counter
        if not c.hidden:
            assert not _overlap(box, (c.x, c.y, c.x + 4 * c.tile_width, c.y + c.tile_height))
        # Where the board has the room (not the Pynt), short columns get the whole message.
        if name == "table:dead-end-short-columns" and board_name != "pynt":
            assert words == DEAD_END
        assert DEAD_END.startswith(words) or DEAD_MORE.startswith(words) or words == DEAD_STUCK


@pytest.mark.parametrize("name", DEAD_ENDS)
@pytest.mark.parametrize("board_name", sorted(BOARDS))
def test_the_dead_end_advice_reaches_the_player_on_every_board(board_name, name):
    # The whole message, "Undo a move or start a new deal." with it, is on the screen
    # beside the cards, or one tap on the shorter words shows it over the columns at the
    # text size; the next tap closes it and does nothing else.
    from freecell_mc.ui.tableview import DEAD_END

    with _in_state(board_name, name) as board:
        app = board.app
        table = app.table
        strip = table.strip
        before = (app.game.moves, bytes(app.game.pos))
        small = strip.dead_box
        words = strip.dead_text.text.replace("\n", " ")
        if words != DEAD_END:
            x, y, w, h = small
            board.tap(x + w // 2, y + h // 2)
            assert strip.dead_text.text.replace("\n", " ") == DEAD_END
            items = shown(table.group, table.art)
            (box, cap), = [(b, c) for k, t, b, c, o in items if o is strip.dead_text.group]
            assert cap >= layout.mm_px(layout.TEXT_MM10, app.hw.ppcm)
            assert 0 <= box[0] and box[2] <= table.layout.status_x and 0 <= box[1] \
                and box[3] <= app.height, box
            assert strip.dead_box == small and not strip.dead_group.hidden
            assert (app.game.moves, bytes(app.game.pos)) == before and table.sel_src == -1
            # The next tap anywhere (here on Undo) closes it, and only that.
            board.tap_button(HIT_UNDO)
            assert strip.dead_text.text.replace("\n", " ") == words
            assert strip.dead_end_shown and strip.dead_box == small
            assert (app.game.moves, bytes(app.game.pos)) == before
            # Opened again, then the position is drawn afresh (another game taken up at a
            # dead end too): the panel is back in its place, not left open.
            board.tap(x + w // 2, y + h // 2)
            table.redraw()
            assert strip.dead_text.text.replace("\n", " ") == words
            assert strip.dead_box == small and not strip.dead_group.hidden
        else:
            # Shown whole already: a tap on it is a tap on the column above it, as before.
            assert board_name != "pynt", "the Pynt has no room for it beside the cards"


# The hit width each column must reach (docs/layout.md): 7 mm on the PyPortal and the
# Titano, 5.5 mm on the Pynt, whose 2.4" panel holds eight such columns only with no strip
# at the side (the buttons in the top row).
COLUMN_MM10 = {"pyportal": 70, "titano": 70, "pynt": 55}


@pytest.mark.parametrize("board_name", sorted(BOARDS))
def test_every_column_takes_the_taps_of_its_width(board_name):
    with _in_state(board_name, "table") as board:
        app = board.app
        lay = app.table.layout
        ppcm = app.hw.ppcm
        target = layout.mm_px(layout.TARGET_MM10, ppcm)
        # Probed pixel by pixel across the columns, at a covered card and at the exposed one.
        for y in (lay.col_y + 2, lay.col_y + lay.card_h + 40):
            widths = [0] * 8
            for x in range(app.width):
                hit = lay.hit(x, y)
                if 0 <= hit < 8:
                    widths[hit] += 1
            need = layout.mm_px(COLUMN_MM10[board_name], ppcm)
            assert min(widths) >= need, (widths, _mm(min(widths), ppcm), need)
            # The columns take every pixel the strip leaves, and the strip is only as
            # wide as "Finish" at the text size (its longest caption), a target, or the
            # counter's four digits need; where that would leave a column under 5.5 mm
            # there is no strip.
            assert sum(widths) == lay.status_x
            ts = lay.text_scale
            strip = max(lay.target, 6 * layout.FONT_W * ts + 4, 4 * (7 * lay.digit_scale + 2) + 4)
            assert lay.status_w - 7 < strip
            narrow = (app.width - strip) // 8 < layout.mm_px(layout._COLUMN_MM10, ppcm)
            assert (lay.status_w == 0) == narrow
        # The buttons stand in the strip, or at the right of the top row over no place;
        # a target wide and tall at least.
        for b in (app.table.strip.undo_button, app.table.strip.menu_button):
            assert b.w >= target and b.h >= target, (b.text, b.w, b.h)
            if lay.status_w:
                assert b.x >= lay.status_x
            else:
                assert b.y + b.h <= lay.col_y
                assert lay.slot_x(SLOT_FOUND + 3) + lay.card_w <= b.x
                assert lay.hit(b.x + b.w // 2, b.y + b.h // 2) in (HIT_UNDO, HIT_MENU)


def _index_px(app, col):
    """Return the smallest index ink (px) over the cards of column col, ranks and suits."""
    table = app.table
    lay = table.layout
    buf = bytearray(20)
    n = app.game.column_cards(col, buf)
    least = 99
    for i in range(n):
        tg = table.cards[buf[i] - 4]
        for k in (0, 1):
            ink = _sheet_box(table.art.sheet, tg[k, 0], lay.tile_w, lay.tile_h, 3)
            least = min(least, ink[3] - ink[1])
    return n, least


@pytest.mark.parametrize("board_name", sorted(BOARDS))
def test_every_card_of_a_19_card_column_shows_a_1_6_mm_index(board_name):
    # On the table where the strips hold the full index (the PyPortal, the Titano); where
    # they cannot (the Pynt), in the lens a tap on the column's covered cards opens.
    with _in_state(board_name, "table:19-cards-lens") as board:
        app = board.app
        lay = app.table.layout
        need = layout.mm_px(layout.TEXT_MM10, app.hw.ppcm)
        n, px = _index_px(app, 0)
        assert n == layout.MAX_CARDS
        if lay.tight_h:
            assert app.table.lens_col == 0
            assert not lens_problems(app, need)
        else:
            assert px >= need, _mm(px, app.hw.ppcm)
        assert not problems(board_name, app)


def test_the_pynt_shows_a_long_column_whole_in_the_lens():
    # The Pynt's panel is 36.4 mm tall (240 px at 66 px/cm). A 19-card column needs a
    # finger-tall row of cells and foundations over it, 18 strips that each hold the
    # 1.6 mm index under its border, and a finger-tall exposed card: more than the panel.
    # So its covered cards show the 7 px index from 14 cards on, and a tap on those that
    # cannot move opens the lens, which shows every card at the full index; the next tap
    # closes it and does nothing else.
    with _in_state("pynt", "table:19-cards") as board:
        app = board.app
        table = app.table
        lay = table.layout
        target = layout.mm_px(layout.TARGET_MM10, app.hw.ppcm)
        text = layout.mm_px(layout.TEXT_MM10, app.hw.ppcm)
        assert target + 18 * (text + 1) + target > app.height
        n, px = _index_px(app, 0)
        assert n == layout.MAX_CARDS and px == lay.tight_h
        assert lay.overlap(n) >= px + 1 and lay.overlap(n) < text + 1
        before = (app.game.moves, bytes(app.game.pos))
        x, _ = lay.tap_point(0)
        board.tap(x, lay.col_y + 2)
        assert table.lens_col == 0 and table.sel_src == -1
        assert not lens_problems(app, text)
        assert not problems("pynt", app)
        board.tap_button(HIT_MENU)  # the next tap, wherever it lands, only closes the lens
        assert table.lens_col == -1 and app.screen is table
        assert table.lens_bg.hidden and table.strip.dead_group.hidden
        assert not table.strip.counter.hidden
        assert (app.game.moves, bytes(app.game.pos)) == before
        # The movable run still picks from the table: a tap on the run's first card.
        first = n - app.game.run_len(0)
        board.tap(*table.tap_point(0, first))
        assert table.lens_col == -1 and (table.sel_src, table.sel_n) == (0, n - first)


@pytest.mark.parametrize("board_name", sorted(BOARDS))
def test_calibrate_is_captioned_as_large_as_the_other_settings(board_name):
    # Every control of the settings speaks at one size: "Calibrate" was 8 px on the
    # PyPortal beside 16 px "Off", "1".."4" and the times.
    caps = {}
    for name in ("settings", "settings:second-page", "settings:last-page"):
        with _in_state(board_name, name) as board:
            s = board.app.screen
            for b in buttons_of(s):
                if b.caption is not None:
                    caps[b.text] = b.caption.scale * layout.CAP_H
    assert "Calibrate" in caps and "Off" in caps and "4" in caps, sorted(caps)
    others = {cap for text, cap in caps.items() if text not in ("Back", "More")}
    assert others == {caps["Off"]} and caps["Calibrate"] == 16, caps


@pytest.mark.parametrize("board_name", sorted(BOARDS))
def test_the_calendars_buttons_share_one_caption_size(board_name):
    # The PyPortal's "Today" was 8 px beside "Back" at 16 px.
    with _in_state(board_name, "daily:month-boundary") as board:
        caps = {b.text: b.caption.scale for b in board.app.screen.buttons
                if b.caption is not None}
        assert caps["Today"] == caps["Back"], caps


@pytest.mark.parametrize("board_name", ["pyportal", "titano"])
def test_a_months_first_day_names_its_month_in_its_cell(board_name):
    # Where weeks of seven days fit across (not the Pynt, whose page names its months
    # beside the title), the oldest day and the 1st of a month say which month: "1 Dec".
    with _in_state(board_name, "daily:month-boundary") as board:
        s = board.app.screen
        items = shown(s.group, board.app.art)
        for i in range(s.cal.n):
            want = s.cal.label(i)
            if " " not in want:
                continue
            label = s.labels[i]
            parts = list(label) if not is_text(label) and len(label) else [label]
            ids = {id(o) for o in parts} | {id(label)}
            said = " ".join(t.replace("\n", " ") for k, t, b, c, o in items if id(o) in ids)
            day, month = want.split(" ")
            assert month in said and day in said.split(), (want, said)


def test_the_pynts_calendar_legend_reads_as_a_legend_not_as_buttons():
    # In its row under the grid, words inside coloured boxes looked like buttons, and a
    # tap on them did nothing: each word stands beside its mark, a small cell, on the felt.
    import vectorio

    with _in_state("pynt", "daily:one-month") as board:
        s = board.app.screen
        words = {"won", "today", "started"}
        items = [(t, box) for k, t, box, c, o in shown(s.group, board.app.art)
                 if t.split(" ")[-1] in words and k == "text"]
        assert {t.split(" ")[-1] for t, _ in items} == words, items
        rects = [o for o in s.group if isinstance(o, vectorio.Rectangle)
                 and o.width < s.width]
        for t, box in items:
            for r in rects:
                assert not _overlap(box, (r.x, r.y, r.x + r.width, r.y + r.height)), t
            # Its mark just left of it, as tall as a line.
            assert any(r.x + r.width <= box[0] <= r.x + r.width + 8 and r.y <= box[1]
                       and box[3] <= r.y + r.height + 2 for r in rects), t
