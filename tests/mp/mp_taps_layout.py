# SPDX-License-Identifier: MIT
"""Smoke checks of taps.py and layout.py on both interpreters, with allocation on MicroPython.

The geometry for every supported screen and cell count, hits over a grid of points, and the
taps derived from scripted touch streams are reported; the driver compares MicroPython's
report with CPython's. On MicroPython, Taps.feed and Layout.hit / hit_column / overlap (one
call per touch reading) must allocate nothing.
"""

import gc

from mpcheck import emit, check, mem_alloc, MICROPYTHON
from freecell_mc.ui import layout
from freecell_mc.ui.layout import Layout
from freecell_mc.hardware.taps import Taps

SIZES = ((320, 240), (480, 320))


def geometry():
    """Report each layout's numbers and check that what a player taps hits that slot."""
    out = []
    for w, h in SIZES:
        for cells in (1, 2, 3, 4):
            lay = Layout(w, h, cells)
            row = [w, h, cells, lay.tile_w, lay.tile_h, lay.card_w, lay.card_h, lay.x0,
                   lay.col_y, lay.status_x, lay.status_w, lay.target, lay.text_scale]
            row.append([lay.overlap(n) for n in range(0, 20)])
            # 19 cards, the longest column, end above the bottom edge.
            check(lay.card_y(18, 19) + lay.card_h <= h, "19 cards fit %dx%d" % (w, h))
            for slot in range(16):
                if layout.SLOT_CELL <= slot < layout.SLOT_CELL + 4 and slot - 8 >= cells:
                    continue
                x, y = lay.tap_point(slot, -1, 7)
                check(lay.hit(x, y) == slot, "tap_point(%d) hits its slot" % slot)
            for hit in (layout.HIT_UNDO, layout.HIT_MENU, layout.HIT_FINISH):
                x, y = lay.button_point(hit)
                check(lay.hit(x, y) == hit, "button %d is hit at its centre" % hit)
            hits = []
            for y in range(0, h, 9):
                for x in range(0, w, 7):
                    hits.append(lay.hit(x, y))
            row.append(hits)
            row.append([lay.hit_column(y, n, f) for n in (0, 1, 7, 19)
                        for f in (0, 3) for y in range(lay.col_y, h, 13)])
            out.append(row)
    return out


def stream(taps, readings, t0=0, dt=10):
    """Feed readings (None or (x, y, z)) every dt ms from t0; return the taps seen."""
    got = []
    t = t0
    for r in readings:
        tap = taps.feed(r, t)
        if tap is not None:
            got.append([tap[0], tap[1], t])
        t += dt
    return got


def taps_report():
    """Report the taps of scripted streams: clean, drop-out, slide, too short, wrapping ticks."""
    press = [(100, 50, 30), (102, 51, 40), (101, 49, 35), (99, 50, 30)]
    up = [None] * 6
    out = []
    out.append(stream(Taps(), press + up))
    out.append(stream(Taps(), press[:2] + [None] + press[2:] + up))  # bridged drop-out
    out.append(stream(Taps(), [(10, 10, 30), (30, 10, 30), (60, 10, 30)] + up))  # slide
    out.append(stream(Taps(min_readings=3), press[:2] + up))  # too short
    out.append(stream(Taps(), press + up, t0=0x1FFFFFF0))  # ticks_ms wraps at 2**29
    out.append(stream(Taps(min_z=20), [(100, 50, 5), (100, 50, 8)] + up))  # too light
    return out


def a_feed(taps, reading, t):
    """Bytes allocated by one feed()."""
    a = mem_alloc()
    taps.feed(reading, t)
    return mem_alloc() - a


def a_hit(lay, x, y):
    """Bytes allocated by hit(), hit_column() and overlap() for one touch."""
    a = mem_alloc()
    lay.hit(x, y)
    lay.hit_column(y, 12, 4)
    lay.overlap(19)
    return mem_alloc() - a


def allocation():
    """Return the largest allocation seen per touch path (MicroPython only)."""
    taps = Taps()
    readings = [(100, 50, 30), (102, 51, 40), None, (101, 49, 35), None, None, None, None]
    lay = Layout(320, 240)
    worst_feed = 0
    worst_hit = 0
    gc.collect()
    gc.disable()
    t = 0
    for _ in range(20):
        for r in readings:
            n = a_feed(taps, r, t)
            worst_feed = n if n > worst_feed else worst_feed
            t += 10
    for y in range(0, 240, 11):
        for x in range(0, 320, 13):
            n = a_hit(lay, x, y)
            worst_hit = n if n > worst_hit else worst_hit
    gc.enable()
    return worst_feed, worst_hit


def main():
    """Report geometry and taps; on MicroPython also measure and check allocation."""
    emit("geometry", geometry())
    emit("taps", taps_report())
    if MICROPYTHON:
        feed, hit = allocation()
        emit("alloc", [feed, hit])
        check(feed == 0, "Taps.feed allocates %d bytes" % feed)
        check(hit == 0, "Layout.hit/hit_column/overlap allocate %d bytes" % hit)


main()
