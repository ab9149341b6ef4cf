# SPDX-License-Identifier: MIT
"""The table through the whole simulator: code.py on a simulated board, driven by a script."""

from PIL import Image

from freecell_mc.ui import cardart
from freecell_mc.ui.layout import HIT_UNDO, Layout
from host_sim import sim


def _near(rgb, colour, tol=12):
    return all(abs(a - b) <= tol
               for a, b in zip(rgb, (colour >> 16, (colour >> 8) & 255, colour & 255)))


def test_script_picks_lights_moves_and_undoes_on_both_boards(tmp_path):
    for board, (w, h) in (("pyportal", (320, 240)), ("titano", (480, 320))):
        lay = Layout(w, h)
        held = tmp_path / ("held-%s.png" % board)
        x, y = lay.tap_point(0, -1, 7)  # the exposed card of column 1 (7 cards dealt)
        ux, uy = lay.button_point(HIT_UNDO)
        script = tmp_path / ("s-%s.txt" % board)
        script.write_text(
            "expect screen table\n"
            "tap %d %d\n" % (x, y)
            + "shot %s\n" % held
            + "tap %d %d\n" % lay.tap_point(8)
            + "expect moves 1\n"
            "tap %d %d\n" % (ux, uy)
            + "expect moves 0\n"
            "key esc\n"
            "expect screen menu\n"
        )
        rc = sim.main(["--headless", "--quiet", "--board", board, "--ms", "1",
                       "--date", "2026-11-30", "--script", str(script)])
        assert rc == 0
        img = Image.open(held).convert("RGB")
        # The held card is tinted and the four empty cells, its targets, are lit.
        assert _near(img.getpixel((lay.slot_x(0) + lay.tile_w - 1,
                                   lay.card_y(6, 7) + lay.tile_h + 3)),
                     cardart._FACES[cardart.P_HELD])
        for slot in range(8, 12):
            assert _near(img.getpixel((lay.slot_x(slot) + lay.tile_w, lay.top_y + lay.top_h // 2)),
                         cardart._FACES[cardart.P_LIT])
