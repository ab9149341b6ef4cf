# SPDX-License-Identifier: MIT
"""The figures the docs copy are the figures their sources print.

A figure in the docs comes from a tool: docs/benchmark.txt (the run of `python -m bench`,
its board-limits section from `python -m bench.board`) or `python -m tools.linecounts`. A
doc cites its source rather than copying a figure where it can; where it copies one (the
tables of docs/memory.md, a figure in a sentence), a check here reads both the doc and the
source and fails on the first that differs, so no copied figure goes stale unseen: when
docs/benchmark.txt is made again, these tests name every copy to bring in step.
"""

import re
from pathlib import Path

import pytest

from tools import linecounts

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BOARDS = ("pyportal", "titano", "pynt")  # the order of docs/memory.md's columns
# docs/memory.md's names of the screens, and the benchmark's.
SCREENS = {"date picker": "datepicker", "table": "table", "menu": "menu", "keypad": "keypad",
           "result": "result", "daily calendar": "daily", "statistics": "stats",
           "settings": "settings", "calibration": "calibration", "How to play": "howto",
           "question": "confirm"}


def num(text):
    """Return the int a doc or the benchmark writes ("127,232", "127232")."""
    return int(text.replace(",", ""))


def one(pattern, text, where):
    """Return the groups of the one match of pattern in text, as ints where they are figures."""
    found = re.findall(pattern, text, re.S)
    assert len(found) == 1, "%s: %d matches of %r, not one" % (where, len(found), pattern)
    got = found[0] if isinstance(found[0], tuple) else (found[0],)
    return tuple(num(g) if re.fullmatch(r"[\d,]+", g) else g for g in got)


# -- docs/benchmark.txt -------------------------------------------------------------------


def bench_screens(bench):
    """Return {board: {screen: (code, objects, on it, first poll, changing)}} of the benchmark."""
    out = {}
    board = None
    for line in bench.splitlines():
        m = re.match(r"  (\w+) \d+x\d+, bytes in use net of the stand-ins", line)
        if m:
            board = m.group(1)
            out[board] = {}
            continue
        m = re.match(r"    (\w+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$", line)
        if board and m:
            out[board][m.group(1)] = tuple(int(g) for g in m.groups()[1:])
        elif board and out[board] and not line.startswith("    "):
            board = None  # the table's end
    return out


def bench_figures(bench):
    """Return the benchmark's figures the docs use, by name (a tuple each, BOARDS' order)."""
    f = {}
    f["run"] = one(r"FreeCell MC benchmark: (\d{4}-\d\d-\d\d \d\d:\d\d UTC)", bench, "run")
    f["standins"] = one(r"the stand-ins keep \(the board spends none of it\): (\d+) bytes",
                        bench, "stand-ins")
    f["held"] = one(r"held on every screen: (\d+) bytes", bench, "held")
    f["steps"] = one(r"a day of play \(tests/test_cpvm_session.py\): (\d+) \+ (\d+) \+ (\d+)",
                     bench, "steps")
    smallest, names = [], []
    for b in BOARDS:
        smallest.append(one(r"\n  %s: the smallest fixed heap that runs the whole session: "
                            r"(\d+) bytes" % b, bench, b)[0])
        names.append(one(r"\n  %s: the smallest.*?each start \(dynamic pools\): (\d+) in \d "
                         r"pools, (\d+) in \d pools, (\d+) in \d pools" % b, bench, b))
    f["smallest"] = tuple(smallest)
    for k, start in enumerate(("first", "second", "third")):
        f["names " + start] = tuple(n[k] for n in names)
    f["spare names"] = tuple(1260 - n[0] for n in names)
    hwm = [one(r"pystack high-water mark:.*?(\d+) bytes at %s" % b, bench, b)[0]
           for b in BOARDS]
    f["pystack"] = tuple(hwm)
    f["pystack left"] = (1536 - max(hwm), 2048 - max(hwm))
    f["margin"] = (130000 - max(smallest),)
    f["idle poll"] = one(r"garbage per idle poll .*?: (\d+) bytes", bench, "idle poll")
    f["save poll"] = one(r"a poll that writes a\s+save at most (\d+) bytes", bench, "save poll")
    texts = re.findall(r"\n    '(.*?)'\s+(\d+)\s+(\d+)\s+(\d+)", bench)
    assert len(texts) == 3, texts
    f["texts"] = tuple((t.replace("\\n", "\n"), int(s), int(a), int(b)) for t, s, a, b in texts)
    f["text pystack"] = one(r"Text (\d+) bytes, bitmap_label (\d+)", bench, "text pystack")
    f["bitmap_label"] = one(r"importing bitmap_label from \.mpy keeps (\d+) bytes "
                            r"\(adafruit_ticks (\d+),\s+adafruit_display_text (\d+), "
                            r"bitmap_label (\d+)\)", bench, "bitmap_label")
    code = dict((m, int(n)) for m, n in re.findall(r"\n    (freecell_mc\S*)\s+(\d+)", bench))
    f["models"] = (code["freecell_mc.ui.screens.models"],)
    f["table modules"] = (code["freecell_mc.ui.tableview"] + code["freecell_mc.ui.table"],)
    screens = bench_screens(bench)
    f["table objects"] = (screens["pyportal"]["table"][1], screens["titano"]["table"][1])
    f["ui"] = one(r"320x240: bitmaps (\d+) B .*?; (\d+) TileGrids, (\d+) Groups, (\d+) texts "
                  r"\((\d+) glyph tiles\), (\d+) shapes, (\d+) palettes; estimated total (\d+) B"
                  r"\n  480x320: bitmaps (\d+) B .*?estimated total (\d+) B", bench, "ui")
    return f


# -- docs/memory.md -----------------------------------------------------------------------


def _row(label):
    """Return the pattern of a table row of docs/memory.md: its label, then three figures."""
    return r"\n\| " + re.escape(label) + r" \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \|"


def memory_figures(md):
    """Return the figures docs/memory.md copies from the benchmark, named as bench_figures."""
    f = {}
    f["run"] = one(r"the run of (\d{4}-\d\d-\d\d \d\d:\d\d UTC) is in `docs/benchmark.txt`",
                   md, "run")
    f["standins"] = one(r"after a collection they keep\s+([\d,]+) bytes", md, "stand-ins")
    f["held"] = one(r"([\d,]+) bytes are held on every screen", md, "held")
    f["steps"] = one(r"In all: (\d+) \+ (\d+) \+ (\d+) steps", md, "steps")
    f["smallest"] = one(_row("the smallest fixed heap that runs it (bisection, steps of 256 B)")
                        + r"\n\| every heap from 128,000", md, "smallest")
    f["pystack"] = one(_row("pystack high-water mark (bytes, of 1,536)"), md, "pystack")
    f["pystack left"] = one(r"Python stack: fits.*?That leaves ([\d,]+) bytes on\s+9\.x and "
                            r"([\d,]+) on 10\.x", md, "pystack left")
    for start, label in (("first", "names at the end of the first start (fresh drive to the "
                                   "reset)"),
                         ("second", "at the end of the second (the reset mid-game to the ring's "
                                    "fill)"),
                         ("third", "at the end of the third (over the full ring)"),
                         ("spare names", "names to spare before the seventh pool")):
        f[start if start == "spare names" else "names " + start] = one(_row(label), md, label)
    f["margin"] = one(r"so 130,000 holds with\s+([\d,]+) bytes to spare", md, "margin")
    f["idle poll"] = one(r"- an idle poll: (\d+) bytes", md, "idle poll")
    f["save poll"] = one(r"- a poll that writes a save: at most (\d+) bytes", md, "save poll")
    rows = re.findall(r"\n\| `(.*?)`(?: \(two lines\))? \| (\d) \| ([\d,]+) \| ([\d,]+) \|", md)
    f["texts"] = tuple((t.replace("` / `", "\n"), int(s), num(a), num(b)) for t, s, a, b in rows)
    f["text pystack"] = one(r"Making one needs, below its caller's frame, ([\d,]+) bytes of "
                            r"pystack for a Text and\s+([\d,]+) for a bitmap_label", md,
                            "text pystack")
    f["bitmap_label"] = one(r"importing bitmap_label\s+keeps ([\d,]+) bytes \(adafruit_ticks "
                            r"([\d,]+), adafruit_display_text ([\d,]+), bitmap_label\s+"
                            r"([\d,]+)\)", md, "bitmap_label")
    f["models"] = one(r"kept, models\.py alone would add\s+([\d,]+) bytes", md, "models")
    f["table modules"] = one(r"The table's modules\s+\(([\d,]+) bytes:", md, "table modules")
    f["table objects"] = one(r"puts the table's objects at\s+([\d,]+) bytes \(([\d,]+) at\s+"
                             r"480x320;", md, "table objects")
    ui = r"\n\| +([\d,]+)(?: B)? \| +([\d,]+)(?: B)? \| "
    got = [one(ui + re.escape(label), md, label)
           for label in ("card sheet", "TileGrids", "Groups", "texts", "palettes",
                         "estimated total")]
    glyphs = one(r"texts \(Moves[^)]*\): (\d+) glyph tiles", md, "glyph tiles")
    shapes = one(ui + r"vectorio rectangles", md, "shapes")
    f["ui"] = (got[0][0], got[1][0], got[2][0], got[3][0], glyphs[0], shapes[0], got[4][0],
               got[5][0], got[0][1], got[5][1])
    return f


def memory_screens(md):
    """Return {board: {screen: (code, objects, on it, first poll, changing)}} of docs/memory.md's
    "Heap per screen" tables."""
    out = {}
    for board, head in (("pyportal", "320x240 (PyPortal):"), ("pynt", "320x240 (Pynt,"),
                        ("titano", "480x320 (Titano):")):
        part = md[md.index("\n" + head):]
        part = part[:part.index("\n\n", part.index("|---"))]
        rows = re.findall(r"\n\| (\w[\w ]*?) +\| +([\d,]+) \| +([\d,]+) \| +([\d,]+) \| +"
                          r"([\d,]+) \| +([\d,]+) \|", part)
        out[board] = {SCREENS[name]: tuple(num(v) for v in vals) for name, *vals in rows}
    return out


def stale_figures(md, bench):
    """Return "name: doc says X, the benchmark Y" for every figure of docs/memory.md that is
    not docs/benchmark.txt's."""
    bad = []
    want = bench_figures(bench)
    have = memory_figures(md)
    for name in sorted(have):
        if have[name] != want[name]:
            bad.append("%s: docs/memory.md says %s, docs/benchmark.txt %s"
                       % (name, have[name], want[name]))
    want_screens = bench_screens(bench)
    for board, screens in sorted(memory_screens(md).items()):
        if set(screens) != set(want_screens[board]):
            bad.append("%s: the screens are %s" % (board, sorted(screens)))
        for screen, vals in sorted(screens.items()):
            if vals != want_screens[board].get(screen):
                bad.append("%s %s: docs/memory.md says %s, docs/benchmark.txt %s"
                           % (board, screen, vals, want_screens[board].get(screen)))
    return bad


def test_the_figures_docs_memory_copies_are_the_benchmarks():
    md = (DOCS / "memory.md").read_text()
    bench = (DOCS / "benchmark.txt").read_text()
    assert stale_figures(md, bench) == []


def test_the_tightest_screens_are_those_the_tables_name():
    """docs/memory.md names the screens that hold the most and need the most while built:
    the tables above it must say so on every board."""
    md = (DOCS / "memory.md").read_text()
    words = one(r"\*\*Tightest screens:\*\* (the \w+), then (the \w+),.*?; (the \w+) and "
                r"(the \w+) need the most", md, "tightest")
    held = [w[4:] for w in words[:2]]
    built = [w[4:] for w in words[2:]]
    for board, screens in memory_screens(md).items():
        by = sorted(screens, key=lambda s: -screens[s][2])
        assert by[:2] == held, board
        by = sorted(screens, key=lambda s: -screens[s][4])
        assert by[:2] == built, board


@pytest.mark.parametrize("pattern, told", [
    (r"\n\| table +\| +[\d,]+ \| +[\d,]+ \| +([\d,]+) \|", "pyportal table"),
    (r"That leaves ([\d,]+) bytes on", "pystack left"),
    (r"after a collection they keep\s+([\d,]+) bytes", "standins"),
    (r"\| names to spare before the seventh pool \| [\d,]+ \| [\d,]+ \| ([\d,]+) \|",
     "spare names"),
])
def test_a_stale_figure_is_told(pattern, told):
    """A figure of docs/memory.md moved by 8 from the benchmark's is named, with the two
    figures."""
    md = (DOCS / "memory.md").read_text()
    bench = (DOCS / "benchmark.txt").read_text()
    found = re.search(pattern, md)
    moved = num(found.group(1)) + 8
    stale = md[:found.start(1)] + "{:,}".format(moved) + md[found.end(1):]
    bad = stale_figures(stale, bench)
    assert len(bad) == 1 and bad[0].startswith(told + ": docs/memory.md says "), bad
    assert str(moved) in bad[0].split(", docs/benchmark.txt")[0], bad


# -- sizes of modules and classes ------------------------------------------------------------


def marked():
    """Return the names of the modules (file name) and classes the tool marks as long."""
    modules, classes = linecounts.count(linecounts.FOLDERS)
    names = {rel.rsplit("/", 1)[1] for n, rel in modules if n > linecounts.MODULE_LIMIT}
    names |= {name for n, _, name in classes if n > linecounts.CLASS_LIMIT}
    return names


def past_the_marks(text):
    """Return the names docs/architecture.md gives as standing past the marks."""
    part = one(r"these stand past the marks \(.*?\): (.*?)\. Their seams", text, "marks")[0]
    return set(re.findall(r"`([\w.]+)`", part)) - {"Play"}


def sized_figures(text):
    """Return (name, lines) for every "`name` (N" of text that names a module or a class."""
    modules, classes = linecounts.count(linecounts.FOLDERS)
    known = {rel.rsplit("/", 1)[1] for _, rel in modules} | {name for _, _, name in classes}
    return [(name, num(n)) for name, n in re.findall(r"`([\w.]+)` \(([\d,]+)[,:)]", text)
            if name in known]


def test_the_long_modules_the_architecture_names_are_those_the_tool_marks():
    text = (DOCS / "architecture.md").read_text()
    assert past_the_marks(text) == marked()


def test_no_doc_copies_a_line_count():
    """A module's or class's lines are the tool's to print: a doc that writes "`x.py` (527"
    goes stale with the next edit."""
    texts = [(p.name, p.read_text()) for p in sorted(DOCS.glob("*.md"))]
    texts.append(("README.md", (ROOT / "README.md").read_text()))
    for name, text in texts:
        assert sized_figures(text) == [], name
    planted = "In the game `tableview.py` (527, the table) and `Game` (413) are long."
    assert sized_figures(planted) == [("tableview.py", 527), ("Game", 413)]
