# SPDX-License-Identifier: MIT
"""Speed on the board: what each interaction costs a PyPortal, Pynt and Titano in time.

    python -m bench.speed [--board NAME ...] [--quick] [--circuitpython PATH] [--mpy-cross PATH]

The game runs on CircuitPython's own VM built like a PyPortal (bench/board.py: the board
image's .mpy, boot.py then code.py, the real adafruit_touchscreen, the stand-ins of
tests/cpvm/) under valgrind's callgrind, which counts the instructions the VM executes.
tests/cpvm/speed.py marks where each interval of them belongs: the stand-ins' own work
(taken out), the touch readings, the game's work and displayio's drawing into a display
that counts the bytes it would put on the panel's bus (a real busdisplay.BusDisplay on the
VM's counting paralleldisplaybus). Instruction counts repeat exactly from run to run, where
the CPU time of these shared machines does not.

The instructions are priced in SAMD51 time by pystone, CPython 3.4's as the PyPI package
micropython-pystone ships it, counted the same way on the same VM in the same run and
set against CircuitPython's published figure for a Metro M4 Express (SAMD51 at 120 MHz;
ANCHOR below). Pystone is never in this repository: it is looked for in the tools folder
(tools/cptools.py), as `pystone.py`. The display bus's bytes are priced at the PyPortal's
8-bit parallel bus, which the CPU drives byte by byte (BUS_NS_PER_BYTE). The touch
library's readings are priced from their own instructions and the ADC's conversions
(TOUCH_*). docs/speed.md says how, where each figure comes from and how far to trust it.

Printed: per board, per interaction, the board milliseconds (median, 95th percentile and
maximum over its repetitions) of the game's work, of the drawing and of both with the poll
and touch timing a player feels; the touch timing; the targets of SPEC 7 against them.
Nothing is asserted.
"""

import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _path in (str(ROOT), str(ROOT / "tests")):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from bench import board as cpvm  # noqa: E402
from tools import cptools  # noqa: E402

# CircuitPython's pystone figure for a Metro M4 Express (ATSAMD51J19, 120 MHz), from
# commit 568636d562 of adafruit/circuitpython (2020, "only run background tasks once per
# tick"): "pystone adapted from python3.4 (change time.time to time.monotonic for
# sub-second resolution)", 5000 passes, 1127.65 -> 1521.6 passes/second; the same commit
# timed 50 passes on a scope at 34.59 ms, 1445 passes/second.
ANCHOR_PASSES_S = 1521.6
ANCHOR = ("1,521.6 pystone passes/s, Metro M4 Express (SAMD51 120 MHz), CircuitPython "
          "commit 568636d562")
PYSTONE_PASSES = 2000  # under callgrind: about 100 million instructions

# The PyPortal's display bus (ports/atmel-samd/common-hal/paralleldisplaybus/ParallelBus.c):
# the CPU writes each byte to the port and toggles the write strobe, about 12 cycles a byte
# at 120 MHz through the port's APB registers; the ILI9341's write cycle is at least 66 ns
# (its datasheet, 8080-I timing). The Pynt runs the PyPortal's firmware and display bus;
# the Titano the same bus to its HX8357.
BUS_NS_PER_BYTE = 100
BUS_NS_RANGE = (66, 133)

# The touch library's readings on the board, beyond its own Python: the pin objects' C
# (claim, configure, release) and AnalogIn.value, which sets the ADC up again and converts
# twice at 12 bits with the ADC clocked at 48 MHz / 16 (ports/atmel-samd/common-hal/
# analogio/AnalogIn.c, asf4_conf/samd51/hpl_adc_config.h): about 15 us a value, 3 us a pin.
TOUCH_PIN_US = 3
TOUCH_VALUE_US = 15
TOUCH_PINS = (4, 10)  # pin objects of a reading without and with pressure
TOUCH_VALUES = (2, 10)  # analog values read

POLL_SLEEP_MS = 5  # app.POLL_S: the main loop's sleep between polls
SAFE_MODE_WAIT_MS = 1000  # supervisor/shared/safe_mode.c: the wait for a reset into safe mode
SPEED_HEAP = cpvm.CEILING + 9000  # the board's heap, with room for the stand-ins' own
TIMEOUT_S = 3600
PAGE_PROGRAM_US = 400  # host_sim/flash.py: W25Q64JV page program, 256 bytes, typical
SECTOR_ERASE_US = 45000  # and a 4 KB sector erase

# What the player waits for, at most (SPEC 7): label of the interaction -> ms.
TARGETS = (("tap -> lit (a pick)", "pick", 50), ("a move drawn", "put one card", 60),
           ("Undo drawn", "undo", 50), ("menu open", "menu open", 250),
           ("Menu -> New deal -> table drawn", "new deal", 400),
           ("boot to the table", "boot to the table", 3000))

_TRIGGERS = ("unsetenv", "chdir", "setenv")
_STANDIN, _GAME, _DRAW = 0, 1, 2


class ToolMissing(cptools.ToolMissing):
    """valgrind or pystone is not on this machine."""


def find_pystone():
    """Return the path of pystone.py in the tools folder, or raise ToolMissing."""
    path = cptools.tools_dir() / "pystone.py"
    if not path.exists():
        raise ToolMissing("pystone.py (micropython-pystone's) not found at %s" % path)
    return path


def find_valgrind():
    """Return valgrind's path, or raise ToolMissing."""
    path = shutil.which("valgrind")
    if path is None:
        raise ToolMissing("valgrind not found (apt-get install valgrind)")
    return path


# -- running the VM under callgrind -------------------------------------------------------


def callgrind_parts(path):
    """Return [(trigger, instructions)] of each part of a combined callgrind dump: the
    instructions since the dump before, and what triggered this one (the C function, or
    None at the program's end)."""
    parts = []
    trigger = None
    with open(path) as f:
        for line in f:
            if line.startswith("desc: Trigger:"):
                m = re.search(r"--dump-before=(\w+)", line)
                trigger = m.group(1) if m else None
            elif line.startswith("totals:"):
                parts.append((trigger, int(line.split()[1])))
                trigger = None
    return parts


def run_counted(image, cwd, script, heap=SPEED_HEAP, timeout=TIMEOUT_S):
    """Run script (a module in cwd, or a path) on the VM under callgrind; return
    (exit code, stdout, stderr, parts)."""
    out = Path(cwd) / ("callgrind.%s.out" % Path(str(script)).stem)
    if out.exists():
        out.unlink()
    wrap = [find_valgrind(), "--tool=callgrind", "--combine-dumps=yes", "--dump-instr=no",
            "--dump-line=no", "--callgrind-out-file=%s" % out]
    wrap += ["--dump-before=%s" % t for t in _TRIGGERS]
    rc, stdout, stderr = image.run(cwd, script, heap=heap, timeout=timeout, wrap=wrap)
    parts = callgrind_parts(out) if out.exists() else []
    return rc, stdout, stderr, parts


def intervals(parts, stdout):
    """Return the marked intervals of a run: [(kind, instructions, line)], kind one of
    _STANDIN, _GAME, _DRAW; line: the @@ line a stand-in interval printed (else None).

    A part ends where a marked call begins, and the call says what the next interval is.
    The marks begin with three setenv calls in a row (tests/cpvm/speed.py calibrate());
    what comes before them is the VM's start.
    """
    lines = [ln[2:].split() for ln in stdout.splitlines() if ln.startswith("@@")]
    start = None
    for i in range(len(parts) - 2):
        if all(parts[i + k][0] == "setenv" for k in range(3)):
            start = i
            break
    if start is None:
        raise RuntimeError("no marks in the run")
    out = []
    li = 0
    for i in range(start + 1, len(parts)):
        kind = _TRIGGERS.index(parts[i - 1][0])
        line = None
        if kind == _STANDIN:
            if li >= len(lines):
                raise RuntimeError("a stand-in interval without its line (part %d)" % i)
            line = lines[li]
            li += 1
        out.append((kind, parts[i][1], line))
        if parts[i][0] is None:
            break
        if kind == _STANDIN and parts[i][0] != "chdir" and li < len(lines):
            # Every stand-in interval ends where the game's begins: anything else would
            # give the lines after it to the wrong intervals.
            raise RuntimeError("the stand-in interval of %s ends in %s (part %d)"
                               % (" ".join(line), parts[i][0], i))
    return out


class Calibration:
    """What the marks themselves cost, taken off the intervals they bound, and a call of
    the stand-in supervisor.ticks_ms (tests/cpvm/speed.py calibrate())."""

    def __init__(self, ivs):
        # ivs from the first mark: draw, draw, draw(marks only), game(-> stand-in),
        # stand-in, game(-> draw), draw(marks only), game(16 ticks), stand-in.
        self.draw = ivs[2][1]
        self.game_standin = ivs[3][1]
        self.game_draw = ivs[5][1]
        self.ticks = (ivs[7][1] - ivs[3][1]) / 16.0
        self.count = 9


class Poll:
    """One poll of the game: its marked intervals summed, and what its @@P line said."""

    __slots__ = ("step", "pressed", "bytes", "commands", "writes", "screen", "game", "draw",
                 "drew", "reading", "reading_instr", "standin", "nvm")

    def __init__(self):
        self.game = 0.0
        self.draw = 0.0
        self.drew = False
        self.reading = None  # 0/1: the reading's pressure, None: no reading
        self.reading_instr = 0
        self.standin = 0
        self.nvm = 0


def polls(ivs, cal):
    """Return the Polls of a run, the game's and the drawing's instructions net of the
    marks and of the stand-in ticks_ms calls."""
    out = []
    cur = Poll()
    for i in range(cal.count, len(ivs)):
        kind, n, line = ivs[i]
        nxt = ivs[i + 1][0] if i + 1 < len(ivs) else _STANDIN
        if kind == _GAME:
            cur.game += n - (cal.game_draw if nxt == _DRAW else cal.game_standin)
        elif kind == _DRAW:
            cur.draw += n - cal.draw
            cur.drew = True
        else:
            tag = line[0]
            if tag == "R":
                cur.reading = int(line[1])
                cur.reading_instr = n
            elif tag == "P":
                cur.standin += n
                cur.step, cur.pressed, cur.bytes, cur.commands, cur.writes, ticks = (
                    int(x) for x in line[1:7])
                cur.screen = line[7]
                cur.game -= ticks * cal.ticks
                out.append(cur)
                cur = Poll()
            else:
                cur.standin += n
                cur.nvm += 1
    return out


# -- the plan: a session of steps (tests/cpvm/session.py) with the interactions labelled --


class Plan(cpvm._Plan):
    """The steps of a speed session, each tap labelled with the interaction it starts."""

    def __init__(self, board):
        super().__init__(board)
        self.labels = {}  # step number (1-based, as the session counts) -> label
        self.finishes = []  # step numbers of the waits in which Finish sends cards home

    def lab(self, label):
        """Label the next step."""
        self.labels[len(self.steps) + 1] = label

    def ltap(self, label, caption):
        self.lab(label)
        self.tap(caption)

    def lmove(self, pick, put, src, dst, n=1):
        """A move by two labelled taps."""
        g = self.game
        self.lab(pick)
        self.add(["p", src, g.column_len(src) - n if src < 8 else -1])
        self.lab(put)
        self.add(["p", dst, -1])
        assert g.move(src, dst, n), (src, dst, n)


def _wrong(g, src):
    """Return a column whose exposed card can move but is not lit for src's card, nor
    lights src: a tap there re-selects; or None."""
    lit = g.targets(src, 1)
    for c in range(8):
        if c != src and g.column_len(c) and not (lit >> c) & 1 and not (g.targets(c, 1) >> src) & 1:
            return c
    return None


def _solve(p, deal, quick=False):
    """Win Microsoft deal `deal` by taps (Freecell Solver's solution), with the table's other
    interactions along the way: a held card sent home by tapping it again, a tap that
    re-selects, Undo and the move again, a 5-card run put and taken back, Finish."""
    from freecell_mc.rules import notation

    g = p.game
    moves = cpvm._solutions()(deal)
    if quick:
        moves = moves[:12]
    for i, text in enumerate(moves):
        if g.finish_available():
            p.ltap("finish", "Finish")
            p.finishes.append(len(p.steps) + 1)
            p.add(["w", 130 * 52])
            while g.finish_step():
                pass
            p.expect("result")
            return
        for src in range(8):
            if g.run_len(src) >= 5 and g.targets(src, 5) & 0xFF and not quick:
                dst = (g.targets(src, 5) & 0xFF).bit_length() - 1
                p.lmove("pick a 5-card run", "put a 5-card run", src, dst, 5)
                p.ltap("undo a 5-card run", "Undo")
                assert g.undo()
                break
        src, dst, n = notation.resolve_move(g, text)
        if dst >= 12 and i % 3 == 0 and src < 12:
            p.lab("pick")
            p.add(["p", src, g.column_len(src) - 1 if src < 8 else -1])
            p.lab("held card tapped: home")
            p.add(["p", src, g.column_len(src) - 1 if src < 8 else -1])
            assert g.move(src, dst, n)
            continue
        wrong = _wrong(g, src) if src < 8 and i % 4 == 1 else None
        if wrong is not None:
            p.lab("pick")
            p.add(["p", src, g.column_len(src) - 1])
            p.lab("bad tap re-selects")
            p.add(["p", wrong, -1])
            p.lab("bad tap re-selects")
            p.add(["p", src, g.column_len(src) - 1])
            p.lab("put to a foundation" if dst >= 12 else "put one card")
            p.add(["p", dst, -1])
            assert g.move(src, dst, n)
            continue
        p.lmove("pick", "put to a foundation" if dst >= 12 else "put one card", src, dst, n)
        if i % 7 == 3:
            p.ltap("undo", "Undo")
            assert g.undo()
            p.lmove("pick", "put to a foundation" if dst >= 12 else "put one card", src, dst, n)


def speed_steps(board, quick=False):
    """Return (steps, labels, finish waits) of the first start: from a fresh drive through
    every interaction SPEC 7 names, each several times."""
    from freecell_mc.rules import deals

    p = Plan(board)
    reps = 1 if quick else 3
    p.expect("datepicker")
    p.ltap("set the date -> table", "Set the date")
    p.expect("table")
    p.deal(0, deals.KIND_SEED, cpvm.SEED)
    for _ in range(reps + 1):
        p.ltap("menu open", "Menu")
        p.expect("menu")
        p.ltap("menu -> table (Continue)", "Continue")
        p.expect("table")
    for _ in range(reps):  # nothing begun: no question
        p.ltap("menu open", "Menu")
        p.expect("menu")
        p.ltap("new deal", "New deal")
        p.expect("table")
    # A deal typed in on the keypad, nothing begun: no question.
    p.ltap("menu open", "Menu")
    p.expect("menu")
    p.ltap("open keypad", "Enter code")
    p.expect("keypad")
    for c in deals.deal_code(deals.KIND_MS, 1, 4):
        p.ltap("keypad key", c)
    p.ltap("keypad OK -> table", "OK")
    p.expect("table")
    p.deal(0, deals.KIND_MS, 1)
    _solve(p, 1, quick)
    if quick:
        p.add(["w", 3000])
        return p
    # The screens of the menu, each opened and left (Back to the menu) several times.
    p.ltap("result -> menu", "Menu")
    p.expect("menu")
    for _ in range(reps):
        for caption, screen in (("Daily deal", "daily"), ("Statistics", "stats"),
                                ("Settings", "settings"), ("Enter code", "keypad")):
            p.ltap("open " + screen, caption)
            p.expect(screen)
            p.ltap("leave " + screen + " (Back)", "Back")
            p.expect("menu")
    p.ltap("open settings", "Settings")
    p.expect("settings")
    p.ltap("open calibration", "Calibrate")
    p.expect("calibration")
    p.ltap("leave calibration (Back)", "Back")
    p.expect("settings")  # the page Calibrate is on: the Pynt's second, whose Back turns
    if p.two_pages:       # back to the first
        p.tap("Back")
        p.expect("settings")
    p.tap("Back")
    p.expect("menu")
    # The daily from the calendar, then a few moves, then the free deal again, replayed.
    p.ltap("open daily", "Daily deal")
    p.expect("daily")
    p.ltap("daily from the calendar", "Today")
    p.expect("table")
    y, m, d = cpvm.picked_date()
    p.deal(1, deals.KIND_DAILY, y * 10000 + m * 100 + d)
    for _ in range(4):
        p.lmove("pick", "put one card", *cpvm._first_move(p.game))
    for _ in range(reps):
        p.ltap("menu open", "Menu")
        p.expect("menu")
        p.ltap("replay: the question", "Replay")
        p.expect("confirm")
        p.ltap("replay from the start -> table", "Replay from the start")
        p.expect("table")
        p.deal(1, deals.KIND_DAILY, y * 10000 + m * 100 + d)
        p.lmove("pick", "put one card", *cpvm._first_move(p.game))
    p.add(["w", 3000])  # the last move saved
    return p


def restart_steps(board, quick=False):
    """Return the plan of the second start: the board restarted (its clock set) onto the
    saved game: straight to the table; a few moves."""
    p = Plan(board)
    p.expect("table")
    p.add(["w", 200])
    p.ltap("menu open", "Menu")
    p.expect("menu")
    p.ltap("menu -> table (Continue)", "Continue")
    p.expect("table")
    p.add(["w", 3000])
    return p


# -- what the VM runs ---------------------------------------------------------------------

_RUN = "import speed\nspeed.run(%r)\n"

# A set clock for the restart: the RTC stand-in starts at 2000-01-01, as after a power cut;
# a reset keeps the board's time (docs/saves.md): the restart continues straight to the table.
_RUN_SET = ("import rtc\nrtc.RTC().datetime = (%d, %d, %d, 12, 0, 0, 0, 1, -1)\n"
            "import speed\nspeed.run(%r)\n")


def _start(image, cwd, board, plan, seed, date=None):
    """Write the session and run boot.py then code.py under callgrind; return [(name,
    exit code, stdout, stderr, parts)] of the runs."""
    cwd = Path(cwd)
    cpvm.write_session(cwd, board, plan.steps, "board", seed)
    for name in ("boot.py", "code.py"):
        if not (cwd / name).exists():
            (cwd / name).symlink_to(image.image / name)
    runs = []
    for name in ("boot", "code"):
        text = _RUN % (name + ".py") if date is None else _RUN_SET % (date + (name + ".py",))
        (cwd / ("speed_%s.py" % name)).write_text(text)
        rc, out, err, parts = run_counted(image, cwd, "speed_" + name)
        runs.append((name, rc, out, err, parts))
        if rc != 0:
            break
    return runs


_PYSTONE = """
import speed
speed.calibrate()
import pystone
speed._game()
pystone.pystones(%d)
speed._standin()
print("@@N end")
speed._game()
"""

# pystone imports clock from utime: on the VM, a mark (a stand-in interval) at each call
_UTIME = ("import speed\n\ndef clock():\n    speed._standin()\n    print('@@N clock')\n"
          "    speed._game()\n    return 0.0\n")


def pystone_instructions(image, folder, passes=PYSTONE_PASSES):
    """Return the VM's instructions per pystone pass: the timed loop less its empty loop,
    as pystone itself times them, counted by callgrind."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    cpvm.write_session(folder, "pyportal", [])
    shutil.copy(find_pystone(), folder / "pystone.py")
    (folder / "utime.py").write_text(_UTIME)
    (folder / "run_pystone.py").write_text(_PYSTONE % passes)
    rc, out, err, parts = run_counted(image, folder, "run_pystone")
    if rc != 0:
        raise RuntimeError("pystone failed on the VM:\n" + (out + err)[-2000:])
    ivs = intervals(parts, out)
    # Proc0: clock, the empty loop, clock, the setup, clock, the timed loop, clock.
    clocks = [i for i, (k, _, line) in enumerate(ivs) if line and line[1:2] == ["clock"]]
    empty = sum(n for k, n, _ in ivs[clocks[0] + 1:clocks[1]])
    timed = sum(n for k, n, _ in ivs[clocks[2] + 1:clocks[3]])
    return (timed - empty) / passes


def cpu_seconds(cmd, cwd, env):
    """Run cmd; return the CPU seconds (user + system) it took, or raise."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, cwd=str(cwd), env=env, capture_output=True, text=True,
                          timeout=TIMEOUT_S)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError("failed: %s\n%s" % (cmd, (proc.stdout + proc.stderr)[-2000:]))
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


_NATIVE_PYSTONE = "import pystone\npystone.pystones(%d)\n"
_NATIVE_UTIME = "def clock():\n    return 0.0\n"


def pystone_cpu(image, folder, passes=50000, runs=3):
    """Return the VM's CPU seconds per pystone pass run natively (no callgrind): the best of
    runs of `passes` less the best of runs of none, as a check on the instruction prices."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(find_pystone(), folder / "pystone.py")
    (folder / "utime.py").write_text(_NATIVE_UTIME)
    env = dict(os.environ)
    env["MICROPYPATH"] = "."
    best = {}
    for n in (0, passes):
        (folder / "p.py").write_text(_NATIVE_PYSTONE % n)
        cmd = [str(image.vm), "-X", "heapsize=%d" % SPEED_HEAP, "p.py"]
        best[n] = min(cpu_seconds(cmd, folder, env) for _ in range(runs))
    return (best[passes] - best[0]) / passes


# The touch library's own instructions per reading, without and with pressure: every call
# into a stand-in pin is marked as a stand-in interval, what is left is the library's.
_TOUCH = """
import board, session, speed, adafruit_touchscreen, digitalio, analogio
speed.calibrate()
t = adafruit_touchscreen.Touchscreen(board.TOUCH_XL, board.TOUCH_XR, board.TOUCH_YD,
    board.TOUCH_YU, calibration=((5200, 59000), (5800, 57000)), size=(320, 240))
P = session.Pin
def wrap(cls, name):
    f = getattr(cls, name)
    def w(*a):
        speed._standin()
        r = f(*a)
        print("@@N pin")
        speed._game()
        return r
    setattr(cls, name, w)
for name in ("__init__", "__enter__", "__exit__"):  # __exit__ calls deinit
    wrap(P, name)
for name in ("switch_to_output", "switch_to_input"):
    wrap(digitalio.DigitalInOut, name)
value = analogio.AnalogIn.value
def v(self):
    speed._standin()
    r = session.analog()
    print("@@N pin")
    speed._game()
    return r
analogio.AnalogIn.value = property(v)
session._xy[0] = 32100
session._xy[1] = 31500
for pressed in (0, 0, 0, 1, 1, 1):
    session._xy[2] = pressed
    speed._standin()
    print("@@N reading", pressed)
    speed._game()
    t.touch_point
speed._standin()
print("@@N end")
speed._game()
"""


def touch_instructions(image, folder):
    """Return (instructions without pressure, with it) the touch library's own Python takes
    per reading on the VM, its stand-in pins taken out (the last of three of each)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    cpvm.write_session(folder, "pyportal", [])
    (folder / "run_touch.py").write_text(_TOUCH)
    rc, out, err, parts = run_counted(image, folder, "run_touch")
    if rc != 0:
        raise RuntimeError("touch run failed on the VM:\n" + (out + err)[-2000:])
    ivs = intervals(parts, out)
    cal = Calibration(ivs)
    got = {}
    cur = None
    for kind, n, line in ivs[cal.count:]:
        if line and line[1] in ("reading", "end"):
            if cur is not None:
                got[cur[0]] = cur[1]
            cur = [int(line[2]) if line[1] == "reading" else None, 0]
        elif kind == _GAME and cur is not None:
            cur[1] += n - cal.game_standin
    return got[0], got[1]


# displayio's renderer alone, the whole screen as a new root group draws it: nothing at all
# (the core fills black), one vectorio rectangle (the screens' background), one opaque
# bitmap, and that bitmap under 1, 3 and 7 wholly transparent ones, which the renderer
# must still look through for every pixel; then a small bitmap moved (two small areas).
_RENDER = """
import board, displayio, vectorio, speed
speed.install(%d, %d)
speed.calibrate()
d = board.DISPLAY
W = d.width
H = d.height
pal = displayio.Palette(2)
pal[0] = 0x006000
pal[1] = 0xFFFFFF
clear = displayio.Palette(2)
clear.make_transparent(0)
clear.make_transparent(1)
bmp = displayio.Bitmap(W, H, 2)
def show(what, layers, g):
    speed._standin()
    print("@@N", what, layers, d.bus.bytes_sent)
    speed._game()
    d.root_group = g
    d.refresh()
show("empty", 0, displayio.Group())
g = displayio.Group()
g.append(vectorio.Rectangle(pixel_shader=pal, width=W, height=H, x=0, y=0))
show("rectangle", 1, g)
for layers in (1, 2, 4, 8):
    g = displayio.Group()
    g.append(displayio.TileGrid(bmp, pixel_shader=pal))
    while len(g) < layers:
        g.append(displayio.TileGrid(displayio.Bitmap(W, H, 2), pixel_shader=clear))
    show("bitmap", layers, g)
small = displayio.TileGrid(displayio.Bitmap(40, 56, 2), pixel_shader=pal, x=10, y=10)
g.append(small)
d.refresh()
for x in (60, 10, 60, 10):
    small.x = x
    speed._standin()
    print("@@N small", 9, d.bus.bytes_sent)
    speed._game()
    d.refresh()
speed._standin()
print("@@N end", 0, d.bus.bytes_sent)
speed._game()
"""


def render_costs(image, folder, board):
    """Return [(what, layers, pixels, instructions)] of displayio's renderer on the VM."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    w, h, _ = cpvm.BOARDS[board]
    cpvm.write_session(folder, board, [])
    (folder / "run_render.py").write_text(_RENDER % (w, h))
    rc, out, err, parts = run_counted(image, folder, "run_render")
    if rc != 0:
        raise RuntimeError("render run failed on the VM:\n" + (out + err)[-2000:])
    ivs = intervals(parts, out)
    cal = Calibration(ivs)
    rows = []
    cur = None
    for kind, n, line in ivs[cal.count:]:
        if line and line[1] in ("empty", "rectangle", "bitmap", "small", "end"):
            if cur is not None:
                rows.append((cur[0], cur[1], (int(line[3]) - cur[2]) // 2, cur[3]))
            cur = [line[1], int(line[2]), int(line[3]), 0]
        elif kind == _DRAW and cur is not None:
            cur[3] += n - cal.draw
    return rows


# The engine's checks after a move, alone: Game.dead_end() and finish_available() on every
# position of a won deal, each call marked.
_CHECKS = """
import json, sys, speed
from freecell_mc.rules.engine import Game
speed.calibrate()
data = json.load(open(sys.argv[1]))
g = Game(4)
for pos, moves in data:
    g.load(bytes(pos), moves)
    speed._standin()
    print("@@N dead_end")
    speed._game()
    g.dead_end()
    speed._standin()
    print("@@N finish")
    speed._game()
    g.finish_available()
    speed._standin()
    print("@@N next")
    speed._game()
speed._standin()
print("@@N end")
speed._game()
"""


def check_costs(image, folder, deal=1):
    """Return {'dead_end': [instructions], 'finish': [...]} over the positions of a deal's
    solution on the VM."""
    import json

    from freecell_mc.rules import deals, notation
    from freecell_mc.rules.engine import Game

    g = Game(4)
    g.deal(deals.deck_for(deals.KIND_MS, deal))
    data = []
    for text in cpvm._solutions()(deal):
        src, dst, n = notation.resolve_move(g, text)
        g.move(src, dst, n)
        data.append([list(g.pos), g.moves])
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    cpvm.write_session(folder, "pyportal", [])
    (folder / "positions.json").write_text(json.dumps(data))
    (folder / "run_checks.py").write_text(_CHECKS)
    out_file = folder / "callgrind.run_checks.out"
    wrap = [find_valgrind(), "--tool=callgrind", "--combine-dumps=yes", "--dump-instr=no",
            "--dump-line=no", "--callgrind-out-file=%s" % out_file]
    wrap += ["--dump-before=%s" % t for t in _TRIGGERS]
    rc, out, err = image.run(folder, folder / "run_checks.py", ["positions.json"],
                             heap=SPEED_HEAP, timeout=TIMEOUT_S, wrap=wrap)
    if rc != 0:
        raise RuntimeError("checks run failed on the VM:\n" + (out + err)[-2000:])
    ivs = intervals(callgrind_parts(out_file), out)
    cal = Calibration(ivs)
    got = {"dead_end": [], "finish": []}
    cur = None
    for kind, n, line in ivs[cal.count:]:
        if line and line[1] in got:
            cur = got[line[1]]
            cur.append(0)
        elif line:
            cur = None
        elif kind == _GAME and cur is not None:
            cur[-1] += n - cal.game_standin
    return got


# -- from polls to interactions -----------------------------------------------------------


def _idle_level(ps):
    """Return the game's instructions in a quiet poll: the median of the polls that drew
    nothing, read nothing pressed and wrote nothing."""
    quiet = [p.game for p in ps if not p.drew and not p.reading]
    return statistics.median(quiet) if quiet else 0.0


def events(ps, labels, finishes):
    """Return {label: [event]}: for each labelled tap, the polls from the one that acted on
    it to the one that drew the result. An event is a list of Polls: one that drew, or a
    screen change's two (the first lets go of the old screen, shown as "-" at its end; the
    next builds and draws the new one). An event belongs to the step its first poll ran
    in: the finger's taps act in the polls of their own step. Finish also gives one event
    per card sent home (the polls of its wait that drew), and its whole work."""
    out = {}
    last = {}  # labelled step -> its label, where an event was found
    i = 1  # the first poll draws the first screen: the start's, not a tap's
    while i < len(ps):
        p = ps[i]
        if p.screen == "-" and i + 1 < len(ps):
            ev = ps[i:i + 2]
        elif p.drew:
            ev = [p]
        else:
            i += 1
            continue
        label = labels.get(p.step)
        if label is not None and p.step not in finishes:
            out.setdefault(label, []).append((ps[i - 1].bytes, ev))
            last[p.step] = label
        i += len(ev)
    # A step whose button is on the next page of a screen (the Pynt's) is two taps: More,
    # then the button. The first of its events is the page turned.
    for k, label in last.items():
        same = [e for e in out[label] if e[1][0].step == k]
        if len(same) > 1:
            for e in same[:-1]:
                out[label].remove(e)
                out.setdefault("next page (More)", []).append(e)
    for k in finishes:
        cards = [i for i in range(1, len(ps)) if ps[i].step == k and ps[i].drew
                 and ps[i].screen == "table"]
        for i in cards:
            out.setdefault("finish: a card home", []).append((ps[i - 1].bytes, [ps[i]]))
        if cards:
            # The work of all its cards (the bytes: those of every card's poll).
            whole = [ps[i] for i in cards]
            sent = sum(ps[i].bytes - ps[i - 1].bytes for i in cards)
            out.setdefault("finish: every card (work)", []).append((-sent, whole))
    return out


class Prices:
    """Board time of instructions, bytes and readings."""

    def __init__(self, instr_per_pass, touch_instr):
        self.us_per_instr = 1e6 / ANCHOR_PASSES_S / instr_per_pass
        self.touch_instr = touch_instr

    def ms(self, instructions):
        return instructions * self.us_per_instr / 1000.0

    def bus_ms(self, nbytes, ns=BUS_NS_PER_BYTE):
        return nbytes * ns / 1e6

    def reading_ms(self, pressed):
        """A touch reading on the board: the library's Python, its pins and ADC values."""
        return (self.ms(self.touch_instr[pressed]) + (TOUCH_PINS[pressed] * TOUCH_PIN_US
                + TOUCH_VALUES[pressed] * TOUCH_VALUE_US) / 1000.0)


def event_figures(ev, prices, prev_bytes):
    """Return (game ms, draw ms, bus ms, bytes, commands, waits ms) of one event: the
    game's work in its polls, displayio's drawing, the bus; between two polls the sleep
    and the next poll's reading. prev_bytes: the bus's count before the event (negative:
    minus the bytes sent, counted already)."""
    game = sum(p.game for p in ev)
    draw = sum(p.draw for p in ev)
    nbytes = -prev_bytes if prev_bytes < 0 else ev[-1].bytes - prev_bytes
    cmds = 0
    waits = 0.0
    for k in range(1, len(ev)):
        waits += POLL_SLEEP_MS + prices.reading_ms(ev[k].pressed)
    return (prices.ms(game), prices.ms(draw), prices.bus_ms(nbytes), nbytes, cmds, waits)


def quantile(xs, q):
    """Return the q-quantile of xs (linear between the nearest ranks)."""
    s = sorted(xs)
    if not s:
        return float("nan")
    pos = (len(s) - 1) * q
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def _runs_polls(runs):
    """Return {run name: (Calibration, [Poll])} of the runs of a start; raise if one failed."""
    out = {}
    for name, rc, stdout, stderr, parts in runs:
        if rc != 0:
            raise RuntimeError("%s failed on the VM (exit %d):\n%s"
                               % (name, rc, (stdout + stderr)[-3000:]))
        ivs = intervals(parts, stdout)
        cal = Calibration(ivs)
        out[name] = (cal, polls(ivs, cal), ivs)
    return out


def _boot_instructions(got):
    """Return (game, draw, bytes) from boot.py's start to the first screen drawn: all of
    boot.py, then code.py up to the end of its first poll that drew."""
    cal, ps, ivs = got["boot"]
    game = sum(n for k, n, _ in ivs[cal.count:] if k == _GAME) - cal.game_standin
    ccal, cps, _ = got["code"]
    draw = 0.0
    for p in cps:
        game += p.game
        draw += p.draw
        if p.drew:
            return game, draw, p.bytes
    return game, draw, 0


def measure_board(image, folder, board, quick=False):
    """Run the speed session of a board: the first start (a fresh drive) and a restart onto
    its saved game; return a dict of what was measured (instructions, bytes, polls)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    plan = speed_steps(board, quick)
    runs = _start(image, folder, board, plan, cpvm.SEED)
    code_total = sum(n for _, n in runs[-1][4])
    first = _runs_polls(runs)
    for f in folder.glob("callgrind.*.out"):  # kept for a closer look (callgrind_annotate)
        f.rename(f.with_name("first." + f.name))
    again = restart_steps(board, quick)
    second = _runs_polls(_start(image, folder, board, again, -1, cpvm.picked_date()))
    ps = first["code"][1]
    evs = events(ps, plan.labels, plan.finishes)
    for label, evl in events(second["code"][1], again.labels, []).items():
        evs.setdefault(label, []).extend(evl)
    saves = []
    for i in range(1, len(ps)):
        if ps[i].writes > ps[i - 1].writes and not ps[i].drew:
            saves.append(ps[i].game)
    return {"events": evs, "polls": ps, "boot_first": _boot_instructions(first),
            "boot_restart": _boot_instructions(second), "saves": saves,
            "idle": _idle_level(ps), "steps": len(plan.steps), "code_total": code_total}


# -- the touch: when a tap acts, after the finger lands -----------------------------------

HOLD_MS = 100  # how long a finger rests on the panel in a tap (for the release's timing)
PHASES = 50  # where in the poll the finger lands: evenly over one poll period


def touch_delays(poll_ms, pressed_ms, hold_ms=HOLD_MS):
    """Return [(from the touch, from the release)] ms until the poll that acts on a tap
    begins its work, for a finger landing at PHASES points of one poll, polls poll_ms
    apart while nothing touches and pressed_ms while the finger is down: the game's own
    freecell_mc.hardware.taps.Taps on CPython, fed as the board's loop feeds it."""
    from freecell_mc.hardware.taps import Taps

    out = []
    for k in range(PHASES):
        down = poll_ms * k / PHASES
        up = down + hold_ms
        taps = Taps()
        t = 0.0
        while t < up + 500:
            pressed = down <= t < up
            # The reading is taken at the poll's start; the tick count too.
            if taps.feed((100, 100, 30000) if pressed else None, int(t)) is not None:
                out.append((t - down, t - up))
                break
            t += pressed_ms if pressed else poll_ms
    return out


def latencies(delays, works, from_release=False):
    """Return every sum of a touch delay and an event's work (ms)."""
    return [d[1 if from_release else 0] + w for d in delays for w in works]


# -- the section -------------------------------------------------------------------------


def _fmt(xs):
    return "%6.0f %6.0f %6.0f" % (statistics.median(xs), quantile(xs, 0.95), max(xs))


ORDER = ("pick", "put one card", "put to a foundation", "pick a 5-card run",
         "put a 5-card run", "held card tapped: home", "bad tap re-selects", "undo",
         "undo a 5-card run", "finish", "finish: a card home", "finish: every card (work)",
         "menu open", "menu -> table (Continue)", "new deal", "replay: the question",
         "replay from the start -> table", "open daily", "daily from the calendar",
         "open keypad", "keypad key", "keypad OK -> table", "open stats", "open settings",
         "open calibration", "leave daily (Back)", "leave stats (Back)",
         "leave settings (Back)", "leave keypad (Back)", "leave calibration (Back)",
         "next page (More)", "result -> menu", "set the date -> table")


def board_figures(m, prices):
    """Return the figures of one board's measurements: {label: dict}, and the poll periods."""
    ps = m["polls"]
    quiet = [p for p in ps if p.screen == "table" and not p.drew and p.reading == 0
             and p.nvm == 0]
    held = [p for p in ps if p.screen == "table" and not p.drew and p.reading == 1]
    idle0 = statistics.median(p.game for p in quiet) if quiet else m["idle"]
    idle1 = statistics.median(p.game for p in held) if held else m["idle"]
    poll_ms = POLL_SLEEP_MS + prices.reading_ms(0) + prices.ms(idle0)
    pressed_ms = POLL_SLEEP_MS + prices.reading_ms(1) + prices.ms(idle1)
    rows = {}
    for label, evs in m["events"].items():
        game, draw, bus, px, works = [], [], [], [], []
        for prev, ev in evs:
            g, d, b, nbytes, _, waits = event_figures(ev, prices, prev)
            game.append(g)
            draw.append(d)
            bus.append(b)
            px.append(nbytes // 2)
            # The acting poll's own reading came before its work.
            works.append(g + d + b + waits + prices.reading_ms(ev[0].pressed))
        rows[label] = {"n": len(evs), "game": game, "draw": draw, "bus": bus, "px": px,
                       "work": works}
    return rows, poll_ms, pressed_ms


def report(out, results, prices, pystone, cpu_check, renders, checks, touch):
    """Print the section from the measurements."""
    import time

    out.write("speed on the board (python -m bench.speed, %s): board milliseconds on a "
              "SAMD51 at 120 MHz\n" % time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    out.write("  CircuitPython's VM under valgrind's callgrind: its instructions, the "
              "stand-ins' own taken out\n")
    out.write("  priced by pystone on the same VM in the same run: %.0f instructions a pass;"
              "\n  anchor %s:\n  %.4f us an instruction (%.1f million a board second)\n"
              % (pystone, ANCHOR, prices.us_per_instr, 1 / prices.us_per_instr))
    if cpu_check is not None:
        out.write("  check by CPU time (the VM run natively, best of 3 on this shared "
                  "machine): %.3f ns an\n  instruction in pystone, %.3f in the game's "
                  "session: priced by CPU time instead, the\n  game's figures would be "
                  "%+.0f%%\n" % (cpu_check[0], cpu_check[1],
                                  100.0 * (cpu_check[1] / cpu_check[0] - 1)))
    out.write("  display bus: %d ns a byte (%d-%d), the CPU driving the 8-bit port; touch: "
              "the library's\n  own instructions (%d / %d a reading, without / with "
              "pressure) plus %d us a pin\n  object and %d us an ADC value\n"
              % (BUS_NS_PER_BYTE, BUS_NS_RANGE[0], BUS_NS_RANGE[1], touch[0], touch[1],
                 TOUCH_PIN_US, TOUCH_VALUE_US))
    out.write("  displayio's renderer alone (the whole screen, %dx%d), VM instructions a "
              "pixel:\n" % cpvm.BOARDS["pyportal"][:2])
    for what, layers, px, n in renders:
        out.write("    %-10s %d layer%s  %6.1f  (%.1f ms a %d-pixel area)\n"
                  % (what, layers, "" if layers == 1 else "s", n / max(1, px),
                     prices.ms(n), px))
    for k in ("dead_end", "finish"):
        xs = [prices.ms(n) for n in checks[k]]
        out.write("  Game.%s() after a move (Microsoft deal 1, %d positions): median %.2f "
                  "ms, max %.2f\n" % ("finish_available" if k == "finish" else k, len(xs),
                                      statistics.median(xs), max(xs)))
    targets = {}
    for board, m in results.items():
        rows, poll_ms, pressed_ms = board_figures(m, prices)
        delays = touch_delays(poll_ms, pressed_ms)
        w, h, _ = cpvm.BOARDS[board]
        out.write("\n  %s %dx%d: a poll every %.1f ms (%.1f while pressed): %d ms of sleep, "
                  "a touch\n    reading %.2f ms (%.2f pressed), the game's quiet poll %.2f ms\n"
                  % (board, w, h, poll_ms, pressed_ms, POLL_SLEEP_MS, prices.reading_ms(0),
                     prices.reading_ms(1), poll_ms - POLL_SLEEP_MS - prices.reading_ms(0)))
        dt = [d[0] for d in delays]
        dr = [d[1] for d in delays]
        if max(dr) < 0:
            out.write("    a tap acts %.0f-%.0f ms after the finger lands, while it is still "
                      "down\n" % (min(dt), max(dt)))
        else:
            out.write("    a tap acts %.0f-%.0f ms after the finger lands (%.0f-%.0f after a "
                      "%d ms press lifts)\n" % (min(dt), max(dt), min(dr), max(dr), HOLD_MS))
        out.write("    %-32s %3s %7s %6s %8s %20s %20s\n"
                  % ("interaction", "n", "game", "draw", "pixels", "work med p95 max",
                     "touch->drawn m/95/max"))
        for label in ORDER + tuple(sorted(set(rows) - set(ORDER))):
            r = rows.get(label)
            if r is None:
                continue
            lat = latencies(delays, r["work"]) if label not in (
                "finish: a card home", "finish: every card (work)") else r["work"]
            out.write("    %-32s %3d %7.1f %6.1f %8d %20s %20s\n"
                      % (label, r["n"], statistics.median(r["game"]),
                         statistics.median([d + b for d, b in zip(r["draw"], r["bus"])]),
                         statistics.median(r["px"]), _fmt(r["work"]), _fmt(lat)))
        for name, key in (("boot to the first screen (fresh drive: the date)", "boot_first"),
                          ("boot to the table (restart onto a saved game)", "boot_restart")):
            g, d, nbytes = m[key]
            total = SAFE_MODE_WAIT_MS + prices.ms(g) + prices.ms(d) + prices.bus_ms(nbytes)
            out.write("    %s: %.0f ms = %d the firmware's\n      wait for safe mode + %.0f "
                      "boot.py and code.py + %.0f drawing\n"
                      % (name, total, SAFE_MODE_WAIT_MS, prices.ms(g),
                         prices.ms(d) + prices.bus_ms(nbytes)))
            if key == "boot_restart":
                rows["boot to the table"] = {"lat": [total]}
        saves = [prices.ms(g) for g in m["saves"]]
        if saves:
            out.write("    a save: %d polls wrote one, the game's work median %.1f ms, max "
                      "%.1f; the flash\n      programs 2 pages in %.1f ms (%.0f ms to erase a "
                      "4 KB sector ahead, in a quiet second)\n"
                      % (len(saves), statistics.median(saves), max(saves),
                         2 * PAGE_PROGRAM_US / 1000.0, SECTOR_ERASE_US / 1000.0))
        for name, label, limit in TARGETS:
            r = rows.get(label)
            if r is None:
                continue
            lat = r["lat"] if "lat" in r else latencies(delays, r["work"])
            targets.setdefault(name, []).append((board, quantile(lat, 0.95), limit))
    out.write("\n  targets (SPEC 7), the 95th percentile from the touch:\n")
    for name, _, limit in TARGETS:
        got = targets.get(name, [])
        out.write("    %-34s <= %5d ms: %s\n" % (name, limit, ", ".join(
            "%s %.0f %s" % (b, v, "ok" if v <= lim else "MISSED") for b, v, lim in got)))


def _ipc_check(image, folder, board, quick, instructions, runs=3):
    """Return the CPU ns an instruction of the first start's code.py takes run natively
    (no callgrind; the best of runs, each from a fresh drive), for a check of the pricing:
    instructions is the count callgrind gave the same run."""
    import resource

    best = None
    for k in range(runs):
        cwd = Path(folder) / ("native%d" % k)
        cwd.mkdir(parents=True)
        plan = speed_steps(board, quick)
        cpvm.write_session(cwd, board, plan.steps, "board", cpvm.SEED)
        for name in ("boot", "code"):
            (cwd / (name + ".py")).symlink_to(image.image / (name + ".py"))
            (cwd / ("speed_%s.py" % name)).write_text(_RUN % (name + ".py"))
        rc, out, err = image.run(cwd, "speed_boot", heap=SPEED_HEAP, timeout=TIMEOUT_S)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        rc2, out, err = image.run(cwd, "speed_code", heap=SPEED_HEAP, timeout=TIMEOUT_S)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if rc != 0 or rc2 != 0:
            raise RuntimeError("native run failed:\n" + (out + err)[-2000:])
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best = cpu if best is None else min(best, cpu)
    return best * 1e9 / instructions


def measure(image, tmp, boards, quick=False):
    """Measure everything the section prints, on the VM of image, in folder tmp: return
    the arguments of report() after out."""
    tmp = Path(tmp)
    pystone = pystone_instructions(image, tmp / "pystone")
    touch = touch_instructions(image, tmp / "touch")
    prices = Prices(pystone, touch)
    renders = render_costs(image, tmp / "render", "pyportal")
    checks = check_costs(image, tmp / "checks")
    results = {}
    for board in boards:
        results[board] = measure_board(image, tmp / board, board, quick)
    try:
        # CPU ns an instruction natively: pystone's, and the first board's session's.
        cpu_check = (pystone_cpu(image, tmp / "pystone_cpu") * 1e9 / pystone,
                     _ipc_check(image, tmp / "native", boards[0], quick,
                                results[boards[0]]["code_total"]))
    except (OSError, RuntimeError, ImportError):
        cpu_check = None
    return results, prices, pystone, cpu_check, renders, checks, touch


def run(out, vm=None, mpy_cross=None, boards=None, quick=False):
    """Print the speed section (see the module's docstring)."""
    boards = list(boards or cpvm.BOARDS)
    find_valgrind()
    find_pystone()
    with tempfile.TemporaryDirectory(prefix="freecell-speed-") as tmp:
        image = cpvm.Image(Path(tmp) / "image", vm, mpy_cross)
        got = measure(image, Path(tmp) / "m", boards, quick)
        report(out, *got)
        return got


def build_parser():
    """Return the command line's parser."""
    from host_sim import options

    ap = options.Parser(prog="python -m bench.speed", description=__doc__.split("\n")[0])
    ap.add_argument("--board", action="append", choices=sorted(cpvm.BOARDS),
                    help="measure this board (repeatable; default: all three)")
    ap.add_argument("--quick", action="store_true",
                    help="a short session: a few moves and screens (for the tests)")
    cpvm.add_tool_options(ap)
    return ap


def main(argv=None):
    """Print the section; return the exit code (2: bad arguments or missing tools)."""
    ap = build_parser()
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        vm, mpy_cross = cpvm.find_tools(args)
        find_valgrind()
        find_pystone()
    except cptools.ToolError as e:
        ap.refuse(e)
    run(sys.stdout, vm, mpy_cross, args.board, args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
