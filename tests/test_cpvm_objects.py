# SPDX-License-Identifier: MIT
"""What display objects and texts cost on CircuitPython's own VM (its real C objects).

bench/ui.py estimates the table's heap from per-object sizes; here they are measured on the
VM: each object made after a collection, the heap read after another. A widgets.Text keeps a
few hundred bytes and needs a few hundred bytes of pystack below its caller; a bitmap_label
of adafruit_display_text (measured where that library is installed) keeps about three times
as much and needs more than twice the pystack (docs/memory.md).
"""

import pytest

from bench import board, ui

_COST_SCRIPT = """
import gc, displayio, vectorio
sheet = displayio.Bitmap(19 * 75, 8, 4)
pal3 = displayio.Palette(3)
keep = [None] * 20
def cost(i, make):
    gc.collect()
    a = gc.mem_alloc()
    keep[i] = make()
    gc.collect()
    return gc.mem_alloc() - a
for i, (name, make) in enumerate((
    ("bitmap 1425x8x4", lambda: displayio.Bitmap(19 * 75, 8, 4)),
    ("bitmap 10x12x2", lambda: displayio.Bitmap(10, 12, 2)),
    ("bitmap 37x14x3", lambda: displayio.Bitmap(37, 14, 3)),
    ("palette 1", lambda: displayio.Palette(1)),
    ("palette 2", lambda: displayio.Palette(2)),
    ("palette 6", lambda: displayio.Palette(6)),
    ("tilegrid 1", lambda: displayio.TileGrid(sheet, pixel_shader=pal3)),
    ("tilegrid 2x2", lambda: displayio.TileGrid(sheet, pixel_shader=pal3, width=2, height=2,
                                                tile_width=19, tile_height=8)),
    ("tilegrid 2x5", lambda: displayio.TileGrid(sheet, pixel_shader=pal3, width=2, height=5,
                                                tile_width=19, tile_height=8)),
    ("tilegrid 40x1", lambda: displayio.TileGrid(sheet, pixel_shader=pal3, width=40, height=1,
                                                 tile_width=19, tile_height=8)),
    ("group", lambda: displayio.Group()),
    ("rectangle", lambda: vectorio.Rectangle(pixel_shader=pal3, width=5, height=5)),
)):
    print("RESULT", name.replace(" ", "_"), cost(i, make))
"""


def _bitmap(w, h, bits):
    # Rows are padded to 32-bit words (shared-module/displayio/Bitmap.c).
    return ui.EST_BITMAP + ui._blocks((w * bits + 31) // 32 * 4 * h)


# bench/ui.py's estimate of each object, from CircuitPython's structs in 16-byte blocks.
ESTIMATES = {
    "bitmap_1425x8x4": _bitmap(1425, 8, 2),  # 4 values: 2 bits each
    "bitmap_10x12x2": _bitmap(10, 12, 1),
    "bitmap_37x14x3": _bitmap(37, 14, 2),
    "palette_1": ui.EST_PALETTE + 16,
    "palette_2": ui.EST_PALETTE + 2 * 16,
    "palette_6": ui.EST_PALETTE + 6 * 16,
    "tilegrid_1": ui.EST_TILEGRID,
    "tilegrid_2x2": ui.EST_TILEGRID,  # up to 4 tile indices live inside the pointer
    "tilegrid_2x5": ui.EST_TILEGRID + 16,
    "tilegrid_40x1": ui.EST_TILEGRID + 48,
    "group": ui.EST_GROUP + 4 * 4,  # its list's first 4 item slots
    "rectangle": ui.EST_SHAPE,
}


def test_display_objects_cost_what_the_benchmark_counts(cp_image, tmp_path):
    script = tmp_path / "costs.py"
    script.write_text(_COST_SCRIPT)
    rc, out, err = cp_image.run(tmp_path, script, heap=board.BIG_HEAP)
    assert rc == 0, out + err
    got = dict((k, v[0]) for k, v in board.results(out).items())
    assert got == ESTIMATES


def test_a_text_keeps_a_few_hundred_bytes_and_a_label_far_more(cp_image, tmp_path):
    rows = board.text_costs(cp_image, tmp_path)
    print(rows)
    texts = [r for r in rows if r[0] == "text"]
    assert [r[1:3] for r in texts] == [list(t) for t in board.TEXTS]
    # Glyph tiles over the firmware font's sheet: a Group, a TileGrid a line, a 2-colour
    # palette and a small object, no pixels. A Text that renders pixels shows here.
    for _, text, scale, kept in texts:
        assert 0 < kept < 512, (text, scale, kept)
    labels = dict(((r[1], r[2]), r[3]) for r in rows if r[0] == "label")
    if board.display_text_lib(cp_image) is None:
        pytest.fail("adafruit_display_text is pinned in requirements-dev.txt: ./dev setup")
    for _, text, scale, kept in texts:
        assert labels[(text, scale)] > 2 * kept


def test_a_text_needs_under_400_bytes_of_pystack_and_a_label_twice_that(cp_image, tmp_path):
    two = board.TEXTS[2][0]
    text = board.text_pystack(cp_image, tmp_path, "text", two)
    label = board.text_pystack(cp_image, tmp_path, "label", two)
    print("pystack below the caller: Text %d, bitmap_label %d" % (text, label))
    assert 0 < text < 400
    assert label > 2 * text
