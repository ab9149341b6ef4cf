# SPDX-License-Identifier: MIT
"""Text as glyph tiles (freecell_mc/ui/widgets.py Text) and the simulator's firmware-like font.

The board draws the game's text as TileGrids over terminalio.FONT.bitmap, its built-in
font's glyph sheet; host_sim/font.py builds that sheet for Blinka from Blinka's own
Terminus glyphs. These tests read the tiles back: what is drawn is the text, placed by its
anchor, and every glyph of the sheet is the font's glyph pixel for pixel.
"""

import fontio
import pytest
import terminalio

from freecell_mc.ui import widgets


def _tiles(text):
    """Return the text a Text's grids show, read back from their tiles."""
    return "\n".join("".join(chr(0x20 + g[k, 0]) for k in range(g.width)).rstrip()
                     for g in text.group)


def test_the_sheet_holds_every_printable_glyph_of_the_font_at_its_code_point():
    font = terminalio.FONT
    blinka = fontio.BuiltinFont()
    w, h = font.get_bounding_box()
    assert (w, h) == (6, 12)
    sheet = font.bitmap
    for c in range(0x20, 0x7F):
        g = font.get_glyph(c)
        assert g.bitmap is sheet and g.tile_index == c - 0x20
        src = blinka.get_glyph(c)
        for y in range(h):
            for x in range(w):
                assert sheet[g.tile_index * w + x, y] == src.bitmap[x, y], (chr(c), x, y)
    assert font.get_glyph(0x2603) is None  # not in the board's font either


def test_a_text_shows_its_characters_placed_by_its_anchor():
    t = widgets.Text("Ab\ncde", 100, 50, scale=2, color=0x123456, anchor=(0.5, 0.5))
    assert _tiles(t) == "Ab\ncde"
    assert t.text == "Ab\ncde"
    # 3 columns of 6 px and two lines 15 px apart (27 px), scaled by 2, centred on (100, 50).
    assert (t.group.x, t.group.y, t.group.scale) == (100 - 18, 50 - 27, 2)
    assert [g.y for g in t.group] == [0, 15]
    right = widgets.Text("Moves", 60, 10, anchor=(1.0, 0.0))
    assert (right.group.x, right.group.y) == (60 - 30, 10)


def test_a_shorter_text_reuses_the_grids_and_a_longer_one_replaces_them():
    t = widgets.Text("12 won", 0, 0)
    grids = list(t.group)
    t.set("3 won")
    assert list(t.group) == grids and _tiles(t) == "3 won"
    t.set("30 days won")
    assert len(t.group) == 1 and list(t.group) != grids and _tiles(t) == "30 days won"
    t.set("two\nlines")
    assert _tiles(t) == "two\nlines"
    t.set("")
    assert len(t.group) == 0 and t.text == ""
    # A text typed key by key (the keypad's entry) outgrows its first grid once, then has
    # room: the next keys reuse the grid.
    entry = widgets.Text("_", 0, 0)
    entry.set("2_")
    grown = entry.group[0]
    for typed in ("24_", "24-_", "24-2_", "24-20_", "24-202_", "24-2026_"):
        entry.set(typed)
        assert entry.group[0] is grown and _tiles(entry) == typed
    # Made empty, a text already stands where its first words will be anchored.
    e = widgets.Text("", 50, 60, anchor=(0.5, 0.5))
    assert (e.group.x, e.group.y, len(e.group)) == (50, 60, 0)


def test_scale_and_colour_change_the_text_in_place():
    t = widgets.Text("Menu", 40, 40, scale=1, anchor=(0.5, 0.5))
    t.set("Menu", 3)
    assert (t.scale, t.group.x, t.group.y) == (3, 40 - 36, 40 - 18)
    t.set("Menus", 2)  # a new text at a new scale, placed for both
    assert (t.scale, t.group.x, t.group.y, t.text) == (2, 40 - 30, 40 - 12, "Menus")
    t.set("Menus")  # 0: the scale it has
    assert t.scale == 2
    with pytest.raises(AttributeError):
        t.scale = 1  # read as a property, changed by set(): one way in
    t.set_color(widgets.TEXT_DARK)
    assert t.group[0].pixel_shader[1] == widgets.TEXT_DARK


def test_a_character_the_font_lacks_draws_as_a_space():
    t = widgets.Text("a\u2603b", 0, 0)
    assert _tiles(t) == "a b"


@pytest.mark.parametrize("anchor", [(0.25, 0), (0, 0.75), (2, 0), (-0.5, 1), (0.5, 1.5)])
def test_an_anchor_other_than_edge_or_middle_is_refused(anchor):
    """A text is placed from half its size in whole pixels: 0, 0.5 and 1 alone say where."""
    with pytest.raises(ValueError, match="anchor: 0, 0.5 or 1"):
        widgets.Text("Menu", 40, 40, anchor=anchor)
    for ax in (0, 0.5, 1):
        for ay in (0.0, 0.5, 1.0):
            t = widgets.Text("Menu", 40, 40, anchor=(ax, ay))
            assert (t.group.x, t.group.y) == (40 - int(24 * ax), 40 - int(12 * ay))
