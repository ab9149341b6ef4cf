# SPDX-License-Identifier: MIT
"""Every button, tap target and text of every screen, measured on the panel in millimetres.

The real App runs each screen on the simulator's framebuffer display with the panel
density its board reports (layout.panel_ppcm). The measurements come from what is on
screen: every label found by walking the displayio tree (its font's capital height times
its scale, and where its pixels land), every button from the screen's own records, and
the table's cells, foundations and exposed cards by probing its hit test pixel by pixel.
The minimums come from the layout's millimetres (7 mm targets, 1.6 mm capitals).
"""

import displayio
import pytest
import terminalio

from bench.ui import is_text
from freecell_mc.rules import deals
from freecell_mc.ui import layout
from freecell_mc.ui.layout import HIT_FINISH, HIT_MENU, HIT_UNDO, SLOT_CELL, SLOT_FOUND
from test_ui_harness import HW, Board

# The Pynt's screens around the table keep the PyPortal's sizes (docs/layout.md: their
# rows do not fit 240 px at the Pynt's 7 mm); they are measured against what they claim,
# so nothing on them may overlap, clip or run off the screen either.
BOARDS = {
    "pyportal": (320, 240),
    "titano": (480, 320),
    "pynt": (320, 240),
}
CLEAR = 2  # pixels of felt between a text and a button

# "keypad:error" is the keypad with the longest message it gives, a refused code;
# "daily:dec1" the calendar on a day whose 30 days span two months (two lines of months).
SCREENS = ("table", "menu", "keypad", "keypad:error", "daily", "daily:dec1", "stats", "settings",
           "datepicker", "calibration", "result", "notice", "confirm")


def _sheet_box(sheet, tile, tw, th):
    """Return the (x1, y1, x2, y2) of the ink of one tile of a glyph sheet, or None if blank."""
    per_row = sheet.width // tw
    ox = (tile % per_row) * tw
    oy = (tile // per_row) * th
    xs = [x for x in range(tw) for y in range(th) if sheet[ox + x, oy + y]]
    ys = [y for y in range(th) for x in range(tw) if sheet[ox + x, oy + y]]
    if not xs:
        return None
    return (min(xs), min(ys), max(xs) + 1, max(ys) + 1)


def cap_height():
    """Return the ink rows of the capital H in the built-in font (from its glyph sheet)."""
    font = terminalio.FONT
    g = font.get_glyph(ord("H"))
    box = _sheet_box(font.bitmap, g.tile_index, g.width, g.height)
    return box[3] - box[1]


def _text_of(group):
    """Return (text, ink box in the group's own pixels) of a Text's group, or None if not one.

    A Text is a Group of TileGrids over the built-in font's sheet, one per line; the text is
    read back from the tiles, and the ink box from the glyphs' pixels.
    """
    if not is_text(group):
        return None
    grids = list(group)
    sheet = terminalio.FONT.bitmap
    tw, th = terminalio.FONT.get_bounding_box()
    lines = []
    box = None
    for g in grids:
        chars = []
        for k in range(g.width):
            t = g[k, 0]
            chars.append(chr(0x20 + t))
            ink = _sheet_box(sheet, t, tw, th)
            if ink is not None:
                x1, y1, x2, y2 = (g.x + k * tw + ink[0], g.y + ink[1], g.x + k * tw + ink[2],
                                  g.y + ink[3])
                box = (x1, y1, x2, y2) if box is None else (
                    min(box[0], x1), min(box[1], y1), max(box[2], x2), max(box[3], y2))
        lines.append("".join(chars).rstrip())
    return "\n".join(lines), box


def labels(group, x=0, y=0, scale=1, hidden=False):
    """Yield (text, its group, ink box on screen, scale) for every visible text under group."""
    if getattr(group, "hidden", False) or hidden:
        return
    if not isinstance(group, displayio.Group):
        return
    s = scale * group.scale
    gx = x + group.x * scale
    gy = y + group.y * scale
    found = _text_of(group)
    if found is not None:
        text, box = found
        if box is not None:
            yield text, group, (gx + box[0] * s, gy + box[1] * s, gx + box[2] * s,
                                gy + box[3] * s), s
        return
    for child in group:
        yield from labels(child, gx, gy, s)


class PanelHW(HW):
    """The harness hardware with the panel density of a board."""

    def __init__(self, board, width, height, start):
        super().__init__(width, height, start)
        self.ppcm = layout.panel_ppcm("pyportal" if board == "pyportal" else "pyportal_" + board,
                                      width, height)


class PanelBoard(Board):
    """A Board whose App knows its panel."""

    def __init__(self, board):
        w, h = BOARDS[board]
        self.hw = PanelHW(board, w, h, (deals.KIND_MS, 1, 4))
        from freecell_mc.app import App

        self.app = App(self.hw)
        self.poll()


def visit(board, name):
    """Show screen name on the board in its fullest state; return (screen, extra targets)."""
    app = board.app
    name, _, state = name.partition(":")
    if name == "confirm":
        from freecell_mc.ui.screens import models

        # The longest question: another day's deal over a daily game, with a way back.
        app.goto("confirm", text=models.loss_text("daily 30 Nov", 1234, "deal #1000000"),
                 yes="Play deal #1000000", keep=models.continue_label(deals.KIND_DAILY, 20261130),
                 back=True)
    elif name == "notice":
        from freecell_mc.saves.policy import MSG_OLDER

        app.goto("notice", text=MSG_OLDER)  # the longest thing the saves may say
    elif state == "dec1":
        app.clock.date = (2026, 12, 1)
        app.goto(name)
    elif name == "result":
        app.goto("result", moves=1234, seconds=4321,
                 code=deals.deal_code(deals.KIND_DAILY, 20261130, 4))
    else:
        app.goto(name)
    s = app.screen
    if state == "error":
        for ch in "24-20261130-5":
            s.key(ch)
        s.key("enter")
    if name == "table":
        # Play never shows the dead-end panel and Finish together; measured, both show.
        s.strip.finish_button.hidden = False
        s.strip.dead_group.hidden = False
    board.app.dirty = True
    board.poll()
    return s


def buttons_of(screen):
    """Return the visible buttons of a screen (the table's three, or the screen's list)."""
    if screen.name == "table":
        bs = [screen.strip.finish_button, screen.strip.undo_button, screen.strip.menu_button]
    else:
        bs = list(screen.buttons)
    return [b for b in bs if not b.hidden]


@pytest.fixture(params=sorted(BOARDS))
def panel(request):
    b = PanelBoard(request.param)
    yield request.param, b
    b.close()


@pytest.mark.parametrize("name", SCREENS)
def test_every_text_is_at_least_1_6_mm_and_inside_the_screen(panel, name):
    board_name, board = panel
    s = visit(board, name)
    m = s.layout if s.name == "table" else s.m
    ppcm = m.ppcm
    need = layout.mm_px(layout.TEXT_MM10, ppcm)
    w, h = board.app.width, board.app.height
    captions = {id(b.caption.group): b for b in buttons_of(s) if b.caption is not None}
    seen = 0
    for text, group, (x1, y1, x2, y2), sc in labels(s.group):
        seen += 1
        px = cap_height() * sc
        assert px >= need, "%s on %s: %r is %d px, %.2f mm (needs 1.6 mm, %d px)" % (
            name, board_name, text, px, px * 10 / ppcm, need)
        assert 0 <= x1 and x2 <= w and 0 <= y1 and y2 <= h, (name, text, (x1, y1, x2, y2))
        b = captions.get(id(group))
        if b is not None:
            # A caption stands clear of its button's border: a pixel of fill all round.
            e = b._border + 1
            assert b.x + e <= x1 and x2 <= b.x + b.w - e and b.y + e <= y1 and y2 <= b.y + b.h - e, (
                name, board_name, b.text, (x1, y1, x2, y2), (b.x, b.y, b.w, b.h))
            continue
        # A text never runs onto a button, nor touches one (a tap there would mean the
        # button); CLEAR pixels of felt between them.
        for b in buttons_of(s):
            assert (x2 + CLEAR <= b.x or b.x + b.w + CLEAR <= x1 or y2 + CLEAR <= b.y
                    or b.y + b.h + CLEAR <= y1), (name, board_name, text, b.text)
    assert seen, "no text found on " + name


@pytest.mark.parametrize("name", SCREENS)
def test_every_button_is_at_least_7_mm_tall_and_its_caption_fits(panel, name):
    board_name, board = panel
    s = visit(board, name)
    m = s.layout if s.name == "table" else s.m
    need = layout.mm_px(layout.TARGET_MM10, m.ppcm)
    bs = buttons_of(s)
    assert bs
    for b in bs:
        assert b.h >= need, "%s on %s: %r is %d px tall, %.1f mm (needs 7 mm, %d px)" % (
            name, board_name, b.text, b.h, b.h * 10 / m.ppcm, need)
        if b.caption is None:
            continue  # drawn by its screen (digit tiles), no caption to fit
        sc = b.caption.scale
        longest = max(len(line) for line in b.text.split("\n"))
        assert longest * 6 * sc <= b.w - 2, (name, b.text, b.w)


@pytest.mark.parametrize("name", ["daily", "daily:dec1"])
def test_every_day_of_the_calendar_is_a_7_mm_target_with_its_number_inside(panel, name):
    # The days are cells of a grid, not buttons: measured from the screen's own boxes.
    board_name, board = panel
    s = visit(board, name)
    need = layout.mm_px(layout.TARGET_MM10, s.m.ppcm)
    for i in range(s.cal.n):
        x, y, w, h = s.day_box(i)
        assert h >= need, "%s on %s: day %d is %d px tall, %.1f mm (needs 7 mm, %d px)" % (
            name, board_name, i, h, h * 10 / s.m.ppcm, need)
        assert 0 <= x and x + w <= s.width and 0 <= y and y + h <= s.height
    # Every day's number lies inside its cell: a Text (a day with its month) a pixel of fill
    # inside the 2-pixel frame, as a button's caption; the move counter's digit tiles, which
    # carry a clear pixel either side (cardart), within the cell.
    assert len(s.labels) == s.cal.n
    for i in range(s.cal.n):
        x, y, w, h = s.day_box(i)
        g = s.labels[i]
        if isinstance(g, displayio.TileGrid):
            e = 1
            box = (g.x, g.y, g.x + g.width * g.tile_width, g.y + g.height * g.tile_height)
        else:
            e = 3
            found = [b for _, _, b, _ in labels(g)]
            assert len(found) == 1, (name, i)
            box = found[0]
        assert x + e <= box[0] and box[2] <= x + w - e, (name, board_name, i, box, (x, w))
        assert y + e <= box[1] and box[3] <= y + h - e, (name, board_name, i, box, (y, h))


def probe_height(lay, x, y0, want):
    """Return how many pixels of the column at x, from y0 down, the hit test gives to want."""
    y = y0
    while y < lay.height and lay.hit(x, y) == want:
        y += 1
    return y - y0


def test_table_targets_are_at_least_7_mm_tall(panel):
    board_name, board = panel
    table = board.app.table
    lay = table.layout
    need = layout.mm_px(layout.TARGET_MM10, lay.ppcm)
    for slot in list(range(SLOT_CELL, SLOT_CELL + 4)) + list(range(SLOT_FOUND, SLOT_FOUND + 4)):
        x, _ = lay.tap_point(slot)
        assert probe_height(lay, x, 0, slot) >= need, (board_name, slot)
    for hit in (HIT_FINISH, HIT_UNDO, HIT_MENU):
        x, y = lay.button_point(hit)
        top = lay.button_top(hit)
        assert probe_height(lay, x, top, hit) >= need, (board_name, hit)
    # The exposed card of the longest column: from its top to the bottom of the screen.
    n = layout.MAX_CARDS
    y = lay.card_y(n - 1, n)
    assert lay.height - y >= need
    assert lay.hit_column(lay.height - 1, n, 0) == n - 1


def test_every_card_of_a_19_card_column_shows_its_index(panel):
    board_name, board = panel
    lay = board.app.table.layout
    for n in range(2, layout.MAX_CARDS + 1):
        # The index row (rank and suit) is the first tile row: a strip at least that tall.
        assert lay.overlap(n) >= lay.tile_h, (board_name, n)
        assert lay.card_y(n - 1, n) + lay.card_h <= lay.height


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


def test_the_pynt_plays_at_its_own_panel_and_its_menus_at_the_pyportals(panel):
    board_name, board = panel
    app = board.app
    lay = app.table.layout
    app.goto("menu")
    m = app.screen.m
    own = layout.panel_ppcm("pyportal_" + board_name if board_name != "pyportal" else "pyportal",
                            app.width, app.height)
    assert lay.ppcm == own
    assert m.ppcm == (layout.PPCM_PYPORTAL if board_name == "pynt" else own)
