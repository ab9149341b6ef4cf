# SPDX-License-Identifier: MIT
"""What CircuitPython's displayio draws when a button joins a screen already shown.

displayio places a vectorio shape when it joins a group. In a group not yet on the display it
is placed nowhere, and once that group joins the display the shape's area is redrawn from the
screen's top-left corner to the shape's far corner. The table adds Finish while it shows
(`tableview.Strip.build`), so its Button goes into the table's group before its shapes
(`widgets.Button(group=...)`): the speed benchmark measured the put that first offers Finish
at 312 ms of drawing on the PyPortal the other way, 64,800 pixels for a 40x67 button
(docs/speed.md). Counted on the VM's real displayio, through a bus that counts its bytes; no
time is measured.
"""

from bench import board

_SCRIPT = """
import board, displayio, speed
speed.install(320, 240)
d = board.DISPLAY
from freecell_mc.ui import widgets
def added(in_place):
    root = displayio.Group()
    root.append(widgets.rect(0, 0, 320, 240, 0x004000))
    strip = displayio.Group()
    root.append(strip)
    d.root_group = root
    d.refresh()
    n = d.bus.bytes_sent
    if in_place:
        b = widgets.Button(280, 33, 40, 67, "Finish", scale=1, group=strip)
    else:
        b = widgets.Button(280, 33, 40, 67, "Finish", scale=1)
        strip.append(b.group)
    b.set_state(widgets.HIGHLIGHT)
    d.refresh()
    return d.bus.bytes_sent - n
print("RESULT in_place", added(True))
print("RESULT appended", added(False))
"""

BOX = 40 * 67  # the button's pixels


def test_a_button_added_to_a_shown_screen_draws_its_own_box(cp_image, tmp_path):
    board.write_session(tmp_path, "pyportal", [])  # the display stand-in reads it
    script = tmp_path / "draw.py"
    script.write_text(_SCRIPT)
    rc, out, err = cp_image.run(tmp_path, script, heap=board.BIG_HEAP)
    assert rc == 0, (out + err)[-2000:]
    got = board.results(out)
    in_place, appended = got["in_place"][0], got["appended"][0]
    # Its edge, its fill and its caption: each its own area, two bytes a pixel, and the
    # addresses of each area's rows.
    assert 2 * 2 * BOX <= in_place < 2 * 2 * BOX + 2 * 2000, got
    # Built first and appended after, each shape is drawn from the screen's corner.
    assert appended > 10 * in_place, got
