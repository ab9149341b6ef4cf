# SPDX-License-Identifier: MIT
"""The game on CircuitPython's own VM, at the board's heap and Python stack.

CircuitPython's unix port, configured like a PyPortal (32-bit words, 31-bit small ints,
MPZ long ints, a fixed heap collected only when an allocation fails, a pystack, real
displayio/vectorio/fontio/terminalio objects; tools/bundle.py finds it), runs the board
image of `./dev bundle` (code.py, boot.py, lib/ of CircuitPython .mpy files) with the
stand-ins of tests/cpvm/ for what the VM lacks: board, digitalio, analogio,
microcontroller, rtc, supervisor, storage and time. Those are compiled by the same
mpy-cross; the real adafruit_touchscreen reads the stand-in pins.

A session is what a player does, as steps (tests/cpvm/session.py reads them): the board
starts fresh from power-up (RTC at 2000, empty nvm, no save file), boot.py runs, then
code.py: the date picker, the table, the menu, a Microsoft deal entered on the keypad and
won by Freecell Solver's solution, the result, today's daily deal, the daily calendar, the
statistics, the settings (both pages), the calibration, yesterday's deal from the calendar,
the game again. Then the save ring is filled to the full (on CPython, with the game's own
storage code) and the board restarts: boot.py, code.py, the full ring loaded, the date
asked again (the RTC restarted), the newest save continued, the calendar, the game.

Used by tests/test_cpvm_*.py and the benchmark: `run(out)` prints the board table.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from freecell_mc.ui import layout  # noqa: E402
from tools import bundle, cptools  # noqa: E402

STANDINS = ROOT / "tests" / "cpvm"

# The fixed heap every session must run in, stand-ins included (SPEC section 7), and the
# sizes above it it must run in too: fragmentation must never decide. Every 512 bytes over
# the first 10 KB, where a failure would lurk, then every 2,500 to 175,000.
HEAP = 130000  # the budget of a day of play (SPEC 7)
# The margin SPEC 7 asks under the budget: the day of play must run in 2 KB less, and in
# every heap above that (the sweep starts here).
MARGIN_HEAP = 128000
HEAP_FINE = 12288
HEAP_TOP = 175000
HEAP_STEP = 2500
PYSTACK_9X = 1536  # CircuitPython 9.x on SAMD51
PYSTACK_10 = 2048  # CircuitPython 10
CEILING = 170000  # the lowest free heap derived for a PyPortal (SPEC section 6)
BIG_HEAP = 400000  # for measuring: collections happen only where the session asks
SCRIPT_HEAP = 4000000  # for test scripts, which keep whole reports in memory

# board name -> (width, height, board.board_id as the board reports it: the Pynt says
# "pyportal", host_sim/hardware.py), from the game's one table of boards
BOARDS = {name: (w, h, "pyportal" if board_id == "pyportal_pynt" else board_id)
          for name, board_id, w, h, _ in layout.BOARDS}
SEED = 7  # the free deal of a fresh start (board.START_DEAL): the same in every run
TIMEOUT_S = 300


def find_vm(option=None):
    """Return the path of CircuitPython's VM, checked; raise cptools.ToolMissing or VMError."""
    exe = cptools.find_vm(option)
    cptools.check_vm(exe)
    return exe


class Image:
    """The board image and the compiled stand-ins, made once into a folder."""

    def __init__(self, folder, vm=None, mpy_cross=None):
        """Build the image (tools/bundle.py) and the stand-ins into folder."""
        import io

        self.folder = Path(folder)
        self.vm = Path(vm) if vm else find_vm()
        self.mpy_cross = Path(mpy_cross) if mpy_cross else cptools.find_mpy_cross()[0]
        self.image = self.folder / "CIRCUITPY"
        bundle.build(self.image, self.mpy_cross, log=io.StringIO())
        self.lib = self.image / "lib"
        # The stand-ins are C modules on the board: compiled here, so that only their
        # bytecode takes heap (standin_costs() says how much).
        self.standins = self.folder / "standins"
        self.standins.mkdir()
        for src in sorted(STANDINS.glob("*.py")):
            bundle.compile_mpy(self.mpy_cross, src, self.standins / (src.stem + ".mpy"), src.name)

    def run(self, cwd, script, args=(), heap=HEAP, pystack=PYSTACK_9X, path=(),
            timeout=TIMEOUT_S, wrap=()):
        """Run script on the VM in folder cwd; return (exit code, stdout, stderr).

        script is a path, or the name of a module in cwd without `.py` (boot, code), which
        runs as the board runs boot.py and code.py: as __main__, with '' first on sys.path
        as on the board. A script given by its path puts its folder's real path there
        instead, interned: its length would move every allocation after it, and with
        them where fragmentation falls (a session's verdict must not depend on the folder
        the image happens to be built in). The module path then goes on as the board's
        does, the stand-ins standing in for its built-in modules: the stand-ins, lib/,
        then path; the first two are links in cwd, named the same in every folder.
        wrap: a command the VM runs under (valgrind, for bench/speed.py).
        """
        cwd = Path(cwd)
        # How to play's words beside code.py, as on the drive (bundle.DATA).
        for name, target in ((".standins", self.standins), ("lib", self.lib)) + tuple(
                (n, self.image / n) for n in bundle.DATA):
            if not (cwd / name).exists():
                (cwd / name).symlink_to(target)
        # The drive holds the save file as the copy tool makes it where it has none (the
        # game never makes it).
        for rel in (bundle.read_manifest(self.image) or {}).get("saves", []):
            if not (cwd / rel).exists():
                (cwd / rel).parent.mkdir(parents=True, exist_ok=True)
                (cwd / rel).write_bytes((self.image / rel).read_bytes())
        env = dict(os.environ)
        env.pop("FREECELL_BOARD", None)  # the VM's os.getenv reads it: the board's own name
        head = (cwd / "session.txt").read_text().split("\n", 1)[0].split() if (
            cwd / "session.txt").exists() else []
        if head[5:6] == ["1"]:
            # A PyPortal: its ADT7410 answers on its bus, which the stand-in board has not
            # (tests/cpvm/board.py: its code would cost the judge's heap), so the board is
            # named as settings.toml would name it; a Pynt's "pyportal" finds no sensor.
            env["FREECELL_BOARD"] = "pyportal"
        env["MICROPYPATH"] = os.pathsep.join([".standins", "lib"] + [str(p) for p in path])
        main = ["-m", script] if isinstance(script, str) and "." not in script else [str(script)]
        cmd = list(wrap) + [str(self.vm), "-X", "heapsize=%d" % heap, "-X",
                            "pystack=%d" % pystack] + main + [str(a) for a in args]
        proc = subprocess.run(cmd, cwd=str(cwd), env=env, capture_output=True, text=True,
                              timeout=timeout)
        return proc.returncode, proc.stdout, proc.stderr

    def run_script(self, script, cwd, data=None, heap=SCRIPT_HEAP, path=()):
        """Run a test script (tests/mp/mp_*.py style) with data as its JSON input file.

        Return its `RESULT <json>` lines as {name: value}; raise with its output if it fails.
        """
        cwd = Path(cwd)
        args = []
        if data is not None:
            (cwd / "input.json").write_text(json.dumps(data))
            args.append("input.json")
        rc, out, err = self.run(cwd, script, args, heap=heap, path=path)
        if rc != 0:
            raise AssertionError("%s failed on the VM:\n%s" % (Path(script).name,
                                                              (out + err)[-4000:]))
        return json_results(out)


def results(stdout):
    """Return the `RESULT NAME VALUE...` lines of a run as {name: [ints or words]}."""
    out = {}
    for line in stdout.splitlines():
        if line.startswith("RESULT "):
            words = line.split()
            out[words[1]] = [int(w) if w.lstrip("-").isdigit() else w for w in words[2:]]
    return out


def json_results(stdout):
    """Return the `RESULT <json [name, value]>` lines of a script as {name: value}."""
    out = {}
    for line in stdout.splitlines():
        if line.startswith("RESULT ["):
            name, value = json.loads(line[7:])
            out[name] = value
    return out


def visits(stdout):
    """Return the VISIT lines of a measuring session: [[screen, changing, first, last]]."""
    out = []
    for line in stdout.splitlines():
        if line.startswith("VISIT "):
            w = line.split()
            out.append([w[1]] + [int(x) for x in w[2:5]])
    return out


# -- a day of play: the session every heap must run ---------------------------------------
#
# Written as a player spends an afternoon (SPEC 7): a deal typed in and won by taps, the
# daily and a free deal each played to 2,000 moves of undo history and both histories kept
# over switches between the slots (an Undo after each switch takes from the kept one), the
# question before a game is lost asked and answered every way, games won (by taps, by
# Finish) and abandoned, every screen and page, and three starts: the first on a fresh
# drive, one in the middle of a game, one after the save ring has gone round in full.

LONG_HISTORY = 2000  # moves of undo history each slot holds when the histories are kept
SHUTTLE_MS = 7  # the Microsoft deal whose first moves lead to a card that can shuttle


def _solutions():
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from solutions import fcs_solution
    finally:
        sys.path.pop(0)
    return fcs_solution


def picked_date():
    """Return the (y, m, d) the date picker of a fresh image offers (tools/bundle.py)."""
    m = bundle._DATE_LINE.search((ROOT / bundle.DATED).read_text())
    source = tuple(int(g) for g in m.groups())
    built = bundle.build_date()
    return max(source, built) if built else source


class _Plan:
    """The steps of a part of the session, with the CPython engine following the game on
    the table, so that taps land on the cards the player means."""

    def __init__(self, board):
        from freecell_mc.rules.engine import Game

        self.board = board
        self.two_pages = board == "pynt"  # the menu, settings and calendar take two pages
        self.steps = []
        self.games = {}  # slot -> the Game the table shows there
        self.slot = 0
        self.Game = Game

    def add(self, *steps):
        """Append steps given as lists."""
        self.steps += [list(st) for st in steps]

    def tap(self, *captions):
        """Tap each caption in turn."""
        for c in captions:
            self.steps.append(["t", c])

    def expect(self, name):
        self.steps.append(["e", name])

    def menu(self, caption, screen):
        """From the table: Menu, then the menu's button caption (paging where it takes two)."""
        self.tap("Menu")
        self.expect("menu")
        self.tap(caption)  # on the Pynt's second page, More first (tests/cpvm/session.py)
        self.expect(screen)

    def deal(self, slot, kind, number, cells=4):
        """The table now shows this deal, fresh, in slot."""
        from freecell_mc.rules import deals

        g = self.Game(cells)
        g.deal(deals.deck_for(kind, number))
        self.games[slot] = g
        self.slot = slot

    @property
    def game(self):
        return self.games[self.slot]

    def move(self, src, dst, n=1):
        """Play a move by two taps: the card (or run) picked up, then where it goes."""
        g = self.game
        self.add(["p", src, g.column_len(src) - n if src < 8 else -1], ["p", dst, -1])
        assert g.move(src, dst, n), (src, dst, n)

    def type_code(self, kind, number, cells=4):
        """From the table: Enter code, the deal's code typed with its dashes, OK."""
        from freecell_mc.rules import deals

        self.menu("Enter code", "keypad")
        for c in deals.deal_code(kind, number, cells):
            self.tap(c)
        self.tap("OK")

    def play_typed(self, kind, number, asked=True):
        """From the table: a deal's code typed in, then the deal in the free slot; asked,
        over a begun game, the question is said yes to."""
        self.type_code(kind, number)
        if asked:
            self.expect("confirm")
            self.tap("Play")
        self.expect("table")
        self.deal(0, kind, number)

    def solve(self, deal, finish=False):
        """Play Freecell Solver's solution of a Microsoft deal by taps; with finish, only
        until Finish shows, then Finish sends the rest home."""
        from freecell_mc.rules import notation

        g = self.game
        for text in _solutions()(deal):
            if finish and g.finish_available():
                self.tap("Finish")
                self.add(["w", 130 * 52])  # one card home every 120 ms (FINISH_STEP_MS)
                while g.finish_step():
                    pass
                break
            src, dst, n = notation.resolve_move(g, text)
            self.move(src, dst, n)
        assert g.won()
        self.expect("result")

    def undo(self, k):
        """Tap Undo k times."""
        for _ in range(k):
            self.tap("Undo")
            assert self.game.undo()

    def shuttle(self, count):
        """Grow the history by count moves: a card in a free cell goes onto a column where
        it fits and back, through the table's own move (step m), after the taps that put
        such a card in a cell. count is even: the card ends in its cell."""
        first, a, b = _shuttle_plan(self.game)
        for src, dst, n in first:
            self.move(src, dst, n)
        self.add(["m", a, b, count])
        g = self.game
        for i in range(count):
            assert g.move(a, b) if i % 2 == 0 else g.move(b, a)

    def history(self):
        """The game on the table must hold its whole undo history here."""
        g = self.game
        self.add(["g", self.slot, g.moves, -1], ["h", g.history_len()])


def _shuttle_plan(g):
    """Return (moves, a, b): the moves (src, dst, n) after which a single card can go from
    a to b and back for good (a free cell and a column it fits, or an empty column)."""
    from freecell_mc.ui.layout import SLOT_CELL

    game = type(g)
    frontier = [(bytes(g.pos), g.moves, [])]
    for _ in range(4):
        nxt = []
        for pos, moves, path in frontier:
            h = game(g.cells)
            h.load(pos, moves)
            for c in range(SLOT_CELL, SLOT_CELL + g.cells):
                if h.top(c):
                    cols = h.targets(c, 1) & 0xFF
                    if cols:
                        return path, c, (cols & -cols).bit_length() - 1
            for src in range(8):
                if not h.column_len(src):
                    continue
                for dst in range(SLOT_CELL + g.cells):
                    if (h.targets(src, 1) >> dst) & 1:
                        k = game(g.cells)
                        k.load(pos, moves)
                        k.move(src, dst, 1)
                        nxt.append((bytes(k.pos), k.moves, path + [(src, dst, 1)]))
        frontier = nxt
    raise AssertionError("no shuttle within 4 moves")


def howto_pages(board):
    """Return how many pages How to play takes on board (its screen's layout of howto.txt)."""
    from host_sim import font, headless_env

    headless_env()
    font.install()  # the board's font, whose glyph sheet the screen's text is tiles of
    from freecell_mc.ui.screens import howto

    w, h, _ = BOARDS[board]
    ppcm = [p for name, _, _, _, p in layout.BOARDS if name == board][0]

    class Host:  # what the screen's build reads of the App
        width, height = w, h

    Host.ppcm = ppcm
    s = howto.Screen(Host())
    with open(ROOT / howto.PATH, encoding="ascii") as f:
        return howto.walk(f, s.cols, s.rows)[0]


def session_steps(board="pyportal"):
    """Return the steps of the first part of the session (tests/cpvm/session.py): from a
    fresh drive to the middle of a game, where the board is reset."""
    from freecell_mc.rules import deals

    y, m, d = picked_date()
    today = y * 10000 + m * 100 + d
    p = _Plan(board)
    p.expect("datepicker")
    p.tap("Set the date")
    p.expect("table")
    p.deal(0, deals.KIND_SEED, SEED)
    # A deal typed in and won by taps; its result, then every screen and page of the menu.
    p.play_typed(deals.KIND_MS, 1, asked=False)
    p.solve(1)
    p.tap("Daily")
    p.expect("table")
    p.deal(1, deals.KIND_DAILY, today)
    p.menu("Daily deal", "daily")
    if p.two_pages:
        p.tap("Older")
        p.expect("daily")
        p.tap("Newer")
        p.expect("daily")
    p.tap("Back")
    p.expect("menu")
    p.tap("Statistics")
    p.expect("stats")
    p.tap("Back")
    p.expect("menu")
    p.tap("Settings")
    p.expect("settings")
    p.tap("Calibrate")
    p.expect("calibration")
    p.add(["c"], ["c"], ["c"])
    p.tap("Back")
    p.expect("settings")  # the page Calibrate was on: the Pynt's second
    if not p.two_pages:
        p.tap("More")
        p.expect("settings")
    p.tap("Back")
    p.expect("settings")
    p.tap("Back")
    p.expect("menu")
    # How to play, every page of it (on the Pynt, on the menu's second page), and back.
    p.tap("How to play")
    p.expect("howto")
    for _ in range(howto_pages(board)):
        p.tap("Next")
        p.expect("howto")
    p.tap("Back")
    p.expect("menu")
    p.tap("Continue")
    p.expect("table")
    # The daily to 2,000 moves of history, some taken back.
    p.shuttle(LONG_HISTORY)
    p.undo(3)
    p.history()
    # A free deal beside it, typed in (the won one is not a game to go back to), to 2,000.
    p.play_typed(deals.KIND_MS, SHUTTLE_MS, asked=False)
    p.shuttle(LONG_HISTORY)
    p.history()
    # Back and forth between the slots: each keeps its whole history, and Undo after a
    # switch takes from the one kept.
    kept = {0: p.games[0], 1: p.games[1]}
    for slot in (1, 0, 1, 0):
        p.tap("Menu")
        p.expect("menu")
        p.tap("Continue daily" if slot else "Continue deal")
        p.expect("table")
        p.slot = slot
        p.games[slot] = kept[slot]
        p.history()
        p.undo(1)
    # The question before a game is lost, answered every way: kept, back, then yes.
    for answer in ("Continue", "Back", "Continue"):
        p.type_code(deals.KIND_MS, 2)
        p.expect("confirm")
        p.tap(answer)
        p.expect("table" if answer == "Continue" else "keypad")
        if answer == "Back":
            p.tap("Back")
            p.expect("menu")
            p.tap("Continue")
            p.expect("table")
    p.history()
    # Games abandoned: each a deal typed in over a begun one, the question said yes to.
    for deal in (2, 3, 4, 5):
        p.play_typed(deals.KIND_MS, deal)
        p.move(*_first_move(p.game))
    # Won with Finish, then a new one begun: the board is reset in the middle of it.
    p.play_typed(deals.KIND_MS, 6)
    p.solve(6, finish=True)
    p.tap("Replay")
    p.expect("table")
    p.deal(0, deals.KIND_MS, 6)
    for _ in range(5):
        p.move(*_first_move(p.game))
    p.add(["w", 3000])  # the save of the last move is on flash
    return p.steps


def _first_move(g):
    """Return a legal move of g: a column's exposed card to a free cell or a column."""
    for src in range(8):
        if g.column_len(src):
            t = g.targets(src, 1)
            if t:
                return src, (t & -t).bit_length() - 1, 1
    raise AssertionError("no move")


def middle_steps(board="pyportal"):
    """Return the steps after the reset in the middle of a game: the newest save continues
    (no undo history: SPEC 5), then more games won and abandoned, and the daily given up."""
    from freecell_mc.rules import deals

    y, m, d = picked_date()
    p = _Plan(board)
    p.expect("datepicker")
    p.tap("Set the date")
    p.expect("table")
    p.deal(0, deals.KIND_MS, 6)
    for _ in range(5):
        p.move(*_first_move(p.game))
    p.add(["g", 0, 5, -1], ["h", 0])
    # Replay asks first (five moves would be lost), then the deal is won with Finish.
    p.menu("Replay", "confirm")
    p.tap("Replay from the start")
    p.expect("table")
    p.deal(0, deals.KIND_MS, 6)
    p.solve(6, finish=True)
    p.tap("Menu")
    p.expect("menu")
    p.tap("Continue")  # the daily kept beside the won deal: its 2,000 moves, no history
    p.expect("table")
    p.deal(1, deals.KIND_DAILY, y * 10000 + m * 100 + d)
    # Today on the calendar is the daily on the table: it continues, nothing asked. Then
    # it is given up and started again.
    p.menu("Daily deal", "daily")
    p.tap("Today")
    p.expect("table")
    p.menu("Replay", "confirm")
    p.tap("Replay from the start")
    p.expect("table")
    p.move(*_first_move(p.game))
    for deal in (8, 9, 10):
        p.play_typed(deals.KIND_MS, deal, asked=deal > 8)  # 8 comes after a won game
        p.move(*_first_move(p.game))
    p.play_typed(deals.KIND_MS, 11)
    p.solve(11, finish=True)
    p.tap("Menu")
    p.expect("menu")
    p.tap("Statistics")
    p.expect("stats")
    p.tap("Back")
    p.expect("menu")
    p.tap("Continue")
    p.expect("table")
    p.add(["w", 3000])
    return p.steps


# After the middle part the daily slot is the newest save: today's daily, one move in.
_RESTART_SLOT = 1
_RESTART_MOVES = 1


def restart_steps(elapsed):
    """Return the steps after the restart over the full ring: the newest save (its elapsed
    seconds) continues, and a look round."""
    return [["e", "datepicker"], ["t", "Set the date"], ["e", "table"],
            ["g", _RESTART_SLOT, _RESTART_MOVES, elapsed],
            ["t", "Menu"], ["e", "menu"], ["t", "Daily deal"], ["e", "daily"],
            ["t", "Back"], ["e", "menu"], ["t", "Replay"], ["e", "confirm"], ["t", "Continue"],
            ["e", "table"], ["w", 100]]


def write_session(cwd, board, steps, mode="board", seed=SEED):
    """Write session.txt into cwd: the display size, the mode, the start's seed, the board's
    id and whether its ADT7410 answers on I2C (the PyPortal's: device.board_name), then the
    steps."""
    w, h, board_id = BOARDS[board]
    lines = ["%d %d %s %d %s %d" % (w, h, mode, seed, board_id, board == "pyportal")]
    lines += [" ".join(str(x) for x in st) for st in steps]
    (Path(cwd) / "session.txt").write_text("\n".join(lines) + "\n")


def start(image, cwd, board, steps, heap=HEAP, pystack=PYSTACK_9X, mode="board", seed=SEED):
    """Start the board in cwd as after a reset: boot.py, then code.py with the steps.

    Return (exit code, stdout, stderr) of the first that fails, else of code.py.
    """
    write_session(cwd, board, steps, mode, seed)
    # As on the board, the two scripts sit at the top of the drive (here: links there).
    for name in ("boot.py", "code.py"):
        if not (Path(cwd) / name).exists():
            (Path(cwd) / name).symlink_to(image.image / name)
    rc, out, err = image.run(cwd, "boot", heap=heap, pystack=pystack)
    if rc != 0:
        return rc, out, err
    return image.run(cwd, "code", heap=heap, pystack=pystack)


def fill_ring(cwd):
    """Write saves on CPython, with the game's storage code, until every place of the ring
    in cwd holds one; return the elapsed seconds the newest save holds.

    The game in play stays what it is; each save carries one more second of play, so the
    newest is known by its time.
    """
    from freecell_mc.saves import policy, savelog

    cwd = Path(cwd)
    nvm = bytearray((cwd / "nvm.bin").read_bytes())
    log = savelog.SaveLog(nvm, str(cwd / savelog.LOG_PATH))
    saves = policy.Saves(log)
    sync = savelog._sync
    # The file is a plain host file here: a flush of the whole host file system per save
    # would only cost time.
    savelog._sync = lambda fs=None: None
    try:
        msg = saves.load()
        if msg is not None:
            raise RuntimeError("the first part's saves do not load on CPython: " + msg)
        slot = saves.active
        s = saves.slot(slot)
        elapsed = s.elapsed
        for i in range(savelog.RING + savelog.GROUP):
            elapsed += 1
            saves.set_elapsed(slot, elapsed)
            # 2 s apart: the save file's budget takes one forced save per 1.75 s.
            if not saves.commit(2000 * i, True):
                raise RuntimeError("a save of the ring's fill was not written")
    finally:
        savelog._sync = sync
    (cwd / "nvm.bin").write_bytes(nvm)
    return elapsed


_filled = {}  # digest of a first part's saves -> (save file, nvm, elapsed) once filled


def fill_ring_cached(cwd):
    """fill_ring, done once for each different state the first part leaves (the sweep's
    sessions all leave the same one)."""
    import hashlib

    from freecell_mc.saves import savelog

    cwd = Path(cwd)
    files = (cwd / savelog.LOG_PATH, cwd / "nvm.bin")
    key = hashlib.sha256(b"".join(f.read_bytes() for f in files)).hexdigest()
    if key not in _filled:
        elapsed = fill_ring(cwd)
        _filled[key] = (files[0].read_bytes(), files[1].read_bytes(), elapsed)
        return elapsed
    saves, nvm, elapsed = _filled[key]
    files[0].write_bytes(saves)
    files[1].write_bytes(nvm)
    return elapsed


def ring_places(cwd):
    """Return how many places of the save file in cwd hold a record (not erased)."""
    from freecell_mc.saves import savelog

    data = (Path(cwd) / savelog.LOG_PATH).read_bytes()
    n = 0
    for k in range(savelog.RING):
        at = (savelog.GUARD + k) * savelog.SECTOR
        if data[at] not in (0xFF, 0):
            n += 1
    return n


class Session:
    """The outcome of a whole session: both parts' exit codes, results and output."""

    def __init__(self):
        self.parts = []  # (exit code, stdout, stderr) per part
        self.elapsed = None  # what the newest save of the full ring holds
        self.places = 0  # places of the ring holding a record at the restart

    @property
    def ok(self):
        """True when every part ran to its end."""
        return bool(self.parts) and all(rc == 0 for rc, _, _ in self.parts)

    def failure(self):
        """Return the end of the output of the part that failed ('' if none did)."""
        for rc, out, err in self.parts:
            if rc != 0:
                return (out + err)[-4000:]
        return ""

    def results(self, part):
        """Return the RESULT lines of part 0 (before the restart) or 1."""
        return results(self.parts[part][1])

    def names(self, part):
        """Return (pools, names) interned at the end of part, as micropython.qstr_info()
        counts them: the dynamic pools (the firmware's and its frozen modules' are static)."""
        for line in self.parts[part][1].splitlines():
            if line.startswith("qstr pool:"):
                fields = line[len("qstr pool:"):].replace(" ", "").split(",")
                got = dict(kv.split("=") for kv in fields)
                return int(got["n_pool"]), int(got["n_qstr"])
        return None

    def visits(self):
        """Return the VISIT lines of both parts, the restart's after the first's."""
        out = []
        for _, stdout, _ in self.parts:
            out += visits(stdout)
        return out


def run_session(image, board, heap=HEAP, pystack=PYSTACK_9X, mode="board"):
    """Run the whole session in a fresh folder: from a fresh drive to a reset in the middle
    of a game, on from there, then the start after the save ring has gone round in full."""
    s = Session()
    with tempfile.TemporaryDirectory(prefix="freecell-cpvm-") as tmp:
        cwd = Path(tmp)
        s.parts.append(start(image, cwd, board, session_steps(board), heap, pystack, mode))
        if not s.ok:
            return s
        # No start deal from now on: the game must continue from its saves.
        s.parts.append(start(image, cwd, board, middle_steps(board), heap, pystack, mode,
                             seed=-1))
        if not s.ok:
            return s
        s.elapsed = fill_ring_cached(cwd)
        s.places = ring_places(cwd)
        s.parts.append(start(image, cwd, board, restart_steps(s.elapsed), heap, pystack, mode,
                             seed=-1))
    return s


def sweep_heaps():
    """Return the fixed heaps every session must run in: MARGIN_HEAP (2 KB under the budget)
    and every 512 bytes above it for HEAP_FINE bytes, then every HEAP_STEP to HEAP_TOP."""
    fine = list(range(MARGIN_HEAP, MARGIN_HEAP + HEAP_FINE + 1, 512))
    return fine + list(range((fine[-1] // HEAP_STEP + 1) * HEAP_STEP, HEAP_TOP + 1, HEAP_STEP))


def smallest(runs, lo, hi, step):
    """Return the smallest value in (lo, hi] at which runs(value) is True, by bisection.

    runs(hi) must be True. Fragmentation can make a smaller value run where a larger one
    fails; this finds a boundary, and the sweep checks every size above MARGIN_HEAP.
    """
    if not runs(hi):
        raise RuntimeError("fails even at %d" % hi)
    while hi - lo > step:
        mid = (lo + hi) // 2 // step * step
        if mid <= lo:
            break
        if runs(mid):
            hi = mid
        else:
            lo = mid
    return hi


def smallest_heap(image, board, lo=80000, hi=HEAP_TOP):
    """Return the smallest fixed heap (bytes, in steps of 256) at which the whole session runs."""
    return smallest(lambda h: run_session(image, board, heap=h).ok, lo, hi, 256)


def pystack_high_water(image, board, lo=512, hi=4096):
    """Return the smallest pystack (bytes, a multiple of 8) at which the whole session runs."""
    def runs(p):
        s = run_session(image, board, heap=BIG_HEAP, pystack=p)
        if not s.ok and "pystack exhausted" not in s.failure():
            raise RuntimeError("the session failed at %d bytes of pystack:\n%s"
                               % (p, s.failure()))
        return s.ok
    return smallest(runs, lo, hi, 8)


# -- what things cost ---------------------------------------------------------------------

_STANDINS = ("session", "board", "digitalio", "analogio", "microcontroller", "rtc",
             "supervisor", "time", "storage")

# The heap each import keeps, after a collection: one module after another, in order.
_IMPORT_SCRIPT = """
import gc
names = %r
gc.collect()
a = gc.mem_alloc()
for n in names:
    __import__(n)
    gc.collect()
    b = gc.mem_alloc()
    print("RESULT", n, b - a)
    a = b
"""


def import_costs(image, names, folder, path=()):
    """Return [(module, bytes its import keeps)] on the VM, in the order given."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    write_session(folder, "pyportal", [])
    script = folder / "imports.py"
    script.write_text(_IMPORT_SCRIPT % (tuple(names),))
    rc, out, err = image.run(folder, script, heap=BIG_HEAP, path=path)
    if rc != 0:
        raise RuntimeError("import run failed:\n" + (out + err)[-2000:])
    got = results(out)
    return [(n, got[n][0]) for n in names]


def standin_costs(image, folder):
    """Return [(stand-in, bytes its import keeps)]: heap the board does not spend."""
    return import_costs(image, _STANDINS, folder)


# The modules the game imports, in the order the board imports them: held from the start to
# the end (code.py's imports and the App's), then those of the screens.
_ALWAYS_NAMES = ("compat", "dates", "hardware.clock", "rules.deals", "rules.engine",
                 "saves.stats", "saves.record", "saves.savelog", "saves.policy", "hardware.taps",
                 "ui.layout", "hardware.device", "ui.widgets", "play", "hardware.backlight", "app",
                 "ui.screens")
_SCREEN_NAMES = ("ui.cardart", "ui.tableview", "ui.table", "ui.screens.models",
                 "ui.screens.menu", "ui.screens.keypad", "ui.screens.daily", "ui.screens.stats",
                 "ui.screens.settings", "ui.screens.datepicker", "ui.screens.calibration",
                 "ui.screens.result", "ui.screens.confirm", "ui.screens.howto")
GAME_MODULES = ("adafruit_touchscreen",) + tuple("freecell_mc." + m
                                                 for m in _ALWAYS_NAMES + _SCREEN_NAMES)
ALWAYS = ("adafruit_touchscreen",) + tuple("freecell_mc." + m for m in _ALWAYS_NAMES)

# What else each screen holds while it shows (app.py drops a left screen's module, models
# and the table's modules). The card art's module stays once the table has been built; the
# date picker is shown at a start with the clock unset, before any table.
_GAME = ("cardart", "tableview", "table")  # freecell_mc.ui.X; the rest freecell_mc.ui.screens.X
SCREEN_CODE = dict(
    (screen, tuple(("freecell_mc.ui." if m in _GAME else "freecell_mc.ui.screens.") + m
                   for m in mods))
    for screen, mods in (
        ("table", ("cardart", "tableview", "table")), ("datepicker", ("datepicker", "models")),
        ("menu", ("cardart", "menu", "models")), ("keypad", ("cardart", "keypad", "models")),
        ("result", ("cardart", "result", "models")), ("daily", ("cardart", "daily", "models")),
        ("stats", ("cardart", "stats", "models")), ("settings", ("cardart", "settings")),
        ("calibration", ("cardart", "calibration", "models")),
        ("confirm", ("cardart", "confirm")), ("howto", ("cardart", "howto"))))


def held_code(name, code):
    """Return the bytes of code held while screen name shows (code: {module: bytes})."""
    return sum(code[m] for m in ALWAYS) + sum(code[m] for m in SCREEN_CODE.get(name, ()))


def per_screen(visit_list, base):
    """Return {screen: [on it, first poll, changing]}: the most over its visits, net of base.

    on it: after the collection of the last poll it showed; first poll: after the collection
    of the poll that built it (what stale words then still hold of the old screen included);
    changing: at the end of that poll, before the collection.
    """
    out = {}
    for name, change, first, last in visit_list:
        a = out.setdefault(name, [0, 0, 0])
        a[0] = max(a[0], last - base)
        a[1] = max(a[1], first - base)
        a[2] = max(a[2], change - base)
    return out


# A widgets.Text and, for comparison, adafruit_display_text's bitmap_label of the same text,
# as kept after a collection: COPIES made into a list made beforehand, the mean of them.
_TEXT_SCRIPT = """
import gc, terminalio
from freecell_mc.ui.widgets import Text
kind = %r
texts = %r
COPIES = %d
if kind == "label":
    from adafruit_display_text.bitmap_label import Label
def make(text, scale):
    if kind == "text":
        return Text(text, 10, 10, scale=scale)
    return Label(terminalio.FONT, text=text, scale=scale)
make("Warm up", 1)  # anything made once on first use is not the object's
for text, scale in texts:
    keep = [None] * COPIES
    gc.collect()
    a = gc.mem_alloc()
    for i in range(COPIES):
        keep[i] = make(text, scale)
    gc.collect()
    print("RESULT", len(text), scale, (gc.mem_alloc() - a) // COPIES)
    keep = None
"""
COPIES = 32

# Texts as the game shows them: a caption, a title at scale 2, two lines of a message.
TEXTS = (("Menu", 1), ("Statistics", 2), ("Won in 97 moves\nTime 6:52", 1))

# One text made below DEPTH frames of a small function, so that the making, not the
# imports, is what needs the most pystack; pystack_use() just before it says how deep that is.
_TEXT_DEPTH_SCRIPT = """
import micropython, terminalio
from freecell_mc.ui.widgets import Text
kind = %r
text = %r
if kind == "label":
    from adafruit_display_text.bitmap_label import Label
def down(n):
    if n:
        return down(n - 1)
    print("RESULT", micropython.pystack_use())
    if kind == "label":
        return Label(terminalio.FONT, text=text, scale=1)
    return Text(text, 10, 10)
down(%d)
"""
_DEPTH = 24


def display_text_lib(image):
    """Return the folder of adafruit_display_text's bitmap_label and adafruit_ticks compiled
    for the VM, or None where the library is not installed (the game does not use it)."""
    import importlib.util

    found = [importlib.util.find_spec(n) for n in ("adafruit_display_text", "adafruit_ticks")]
    if any(spec is None or spec.origin is None for spec in found):
        return None
    lib = image.folder / "display_text"
    if not lib.exists():
        pkg = lib / "adafruit_display_text"
        pkg.mkdir(parents=True)
        text_dir = Path(found[0].origin).parent
        for src, dst in ((text_dir / "__init__.py", pkg / "__init__.mpy"),
                         (text_dir / "bitmap_label.py", pkg / "bitmap_label.mpy"),
                         (Path(found[1].origin), lib / "adafruit_ticks.mpy")):
            bundle.compile_mpy(image.mpy_cross, src, dst, src.name)
        # bitmaptools is C on the board and absent from the VM (bitmap_label's fallback
        # without it fails). `"".format` takes any arguments, allocates nothing and, being
        # built in, takes no pystack: as the C functions. No pixels are drawn.
        (lib / "bitmaptools.py").write_text(
            'blit = "".format\nreplace_color = "".format\nfill_region = "".format\n')
    return lib


def text_costs(image, folder):
    """Return [[kind, text, scale, bytes kept]] on the VM: widgets.Text, and bitmap_label
    where adafruit_display_text is installed."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    write_session(folder, "pyportal", [])  # adafruit_ticks imports supervisor
    lib = display_text_lib(image)
    out = []
    for kind in ("text", "label") if lib is not None else ("text",):
        script = folder / ("texts_%s.py" % kind)
        script.write_text(_TEXT_SCRIPT % (kind, TEXTS, COPIES))
        rc, stdout, err = image.run(folder, script, heap=BIG_HEAP, path=[lib] if lib else ())
        if rc != 0:
            raise RuntimeError("text cost run failed:\n" + (stdout + err)[-2000:])
        rows = [line.split()[1:] for line in stdout.splitlines() if line.startswith("RESULT")]
        for (text, scale), row in zip(TEXTS, rows):
            out.append([kind, text, scale, int(row[2])])
    return out


def text_pystack(image, folder, kind, text):
    """Return the pystack (bytes) making one text needs below its caller's frame: the
    smallest -X pystack (steps of 8) that makes it, less the pystack in use at the call."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    write_session(folder, "pyportal", [])
    lib = display_text_lib(image) if kind == "label" else None
    script = folder / "depth.py"
    script.write_text(_TEXT_DEPTH_SCRIPT % (kind, text, _DEPTH))

    def runs(p):
        rc, out, err = image.run(folder, script, heap=BIG_HEAP, pystack=p,
                                 path=[lib] if lib else ())
        if rc != 0 and "pystack exhausted" not in out + err:
            raise RuntimeError("text depth run failed:\n" + (out + err)[-2000:])
        return rc == 0, out

    used = int(runs(8192)[1].split()[1])  # the RESULT line: pystack_use() at the call
    return smallest(lambda p: runs(p)[0], used, 8192, 8) - used


# -- the benchmark's section --------------------------------------------------------------


def run(out, vm=None, mpy_cross=None):
    """Print the board section: what the stand-ins and each import keep, per screen the heap
    on it and while changing to it, the smallest fixed heap and the sweep above MARGIN_HEAP, the
    pystack high-water mark, the garbage of an idle poll, what a text costs."""
    with tempfile.TemporaryDirectory(prefix="freecell-cpvm-") as tmp:
        image = Image(Path(tmp) / "image", vm, mpy_cross)
        _report(out, image, Path(tmp))


def idle_poll(image, folder):
    """Return the ui_alloc script's figures for Microsoft deal 1 (tests/test_cpvm_alloc.py)."""
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from solutions import fcs_solution
    finally:
        sys.path.pop(0)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    write_session(folder, "pyportal", [["w", 10**8]], seed=-1)
    return image.run_script(STANDINS / "scripts" / "ui_alloc.py", folder,
                            {"kind": 3, "deal": 1, "moves": fcs_solution(1)}, heap=200000)


def _report(out, image, tmp):
    """Print the section (see run)."""
    out.write("board limits on CircuitPython's own VM (%s, its unix port configured like a\n"
              "PyPortal): the board image's .mpy, boot.py then code.py -> app.main -> App,\n"
              "the real adafruit_touchscreen; stand-ins for board, digitalio, analogio,\n"
              "microcontroller, rtc, supervisor, storage and time (tests/cpvm/)\n"
              % image.vm.name)
    standins = standin_costs(image, tmp / "s")
    total = sum(n for _, n in standins)
    out.write("  heap the stand-ins keep (the board spends none of it): %d bytes\n    %s\n"
              % (total, ", ".join("%s %d" % kv for kv in standins)))
    # The stand-ins first: adafruit_touchscreen imports digitalio and analogio.
    imports = import_costs(image, _STANDINS + GAME_MODULES, tmp / "i")[len(_STANDINS):]
    code = dict(imports)
    out.write("  code kept by each import (.mpy, bytes; a figure moves with the import order,\n"
              "  the interned strings' pools grow in steps):\n")
    for name, n in imports:
        out.write("    %-40s %6d\n" % (name, n))
    out.write("  held on every screen: %d bytes (touchscreen, compat to app, the screens package)\n"
              % sum(code[m] for m in ALWAYS))
    for name in BOARDS:
        w, h, _ = BOARDS[name]
        s = run_session(image, name, heap=BIG_HEAP, mode="measure")
        if not s.ok:
            raise RuntimeError("measuring session failed (%s):\n%s" % (name, s.failure()))
        out.write("  %s %dx%d, bytes in use net of the stand-ins (%d), the most over the\n"
                  "  session and the restart:\n" % (name, w, h, total))
        out.write("    %-12s %7s %8s %8s %11s %9s\n"
                  % ("screen", "code", "objects", "on it", "first poll", "changing"))
        for screen, (live, first, change) in per_screen(s.visits(), total).items():
            c = held_code(screen, code)
            out.write("    %-12s %7d %8d %8d %11d %9d\n"
                      % (screen, c, live - c, live, first, change))
    out.write("  'on it': after a collection at its last poll, the most over its visits; code:\n"
              "  the modules held while it shows, objects: the rest. 'first poll': after the\n"
              "  collection of the poll that built it, what stale words on the stacks still\n"
              "  hold of the old screen included; 'changing': at the end of that poll before\n"
              "  the collection, all of its garbage included. The board collects only when an\n"
              "  allocation fails: the smallest heap below says what a screen change needs.\n")
    out.write("  the session: a day of play (tests/test_cpvm_session.py): %d + %d + %d steps over\n"
              "    three starts, 2,000 moves of undo history in both slots kept over four\n"
              "    switches, 13 questions, 4 games won and 10 abandoned, every screen and page\n"
              % (len(session_steps()), len(middle_steps()), len(restart_steps(0))))
    for name in BOARDS:
        least = smallest_heap(image, name)
        bad = [h for h in sweep_heaps() if not run_session(image, name, heap=h).ok]
        names = run_session(image, name, heap=BIG_HEAP)
        out.write("  %s: the smallest fixed heap that runs the whole session: %d bytes;\n"
                  "    every heap from %d to %d, 512 apart for %d bytes, then %d: %s;\n"
                  "    interned names at the end of each start (dynamic pools): %s\n"
                  % (name, least, MARGIN_HEAP, HEAP_TOP, HEAP_FINE, HEAP_STEP,
                     "all %d run" % len(sweep_heaps()) if not bad else "FAILS at %s" % bad,
                     ", ".join("%d in %d pools" % names.names(k)[::-1] for k in range(3))))
    # From .py the game does not run: code.py shows which zip to use instead
    # (hardware/source.py; tests/test_source_install.py), so there is no session to measure.
    out.write("  from .py (copied as source): code.py names the release zip to use instead\n"
              "    (the source compiled at import needed about 185 KB, docs/memory.md)\n")
    hwm = [pystack_high_water(image, b) for b in BOARDS]
    out.write("  pystack high-water mark: %s (9.x gives %d, 10.x %d)\n"
              % (", ".join("%d bytes at %s" % (n, b) for n, b in zip(hwm, BOARDS)),
                 PYSTACK_9X, PYSTACK_10))
    got = idle_poll(image, tmp / "p")
    polls, looks, beyond = got["idle"]
    out.write("  garbage per idle poll (the table, Microsoft deal 1 played by taps): %d bytes,\n"
              "    the touch library's %d-byte pin objects and %d of the game's, over %d polls\n"
              "    (%d looked for changes to save); a pick or drop tap %d/%d bytes (the\n"
              "    winning drop, which asks for the result screen, %d); a poll that writes a\n"
              "    save at most %d bytes (%d such polls; the first %d); a quiet poll that\n"
              "    erases ahead at most %d bytes (%d such polls; the first opens the save\n"
              "    file for writing)\n"
              % (got["pins"] + beyond, got["pins"], beyond, polls, looks, got["taps"][0],
                 got["taps"][1], got["winning_drop"], got["writes"][1], got["writes"][0],
                 got["writes"][2], got["erases"][1], got["erases"][0]))
    rows = text_costs(image, tmp / "t")
    label = dict(((t, sc), n) for kind, t, sc, n in rows if kind == "label")
    out.write("  a text as kept (bytes after a collection, the mean of %d): widgets.Text, and\n"
              "  adafruit_display_text's bitmap_label for comparison (the game has none)\n"
              % COPIES)
    out.write("    %-28s %5s %6s %12s\n" % ("text", "scale", "Text", "bitmap_label"))
    for kind, t, sc, n in rows:
        if kind == "text":
            out.write("    %-28s %5d %6d %12s\n" % (repr(t), sc, n, label.get((t, sc), "-")))
    two = TEXTS[2][0]
    lib = display_text_lib(image)
    out.write("  pystack a two-line text needs below its caller: Text %d bytes%s\n"
              % (text_pystack(image, tmp / "d", "text", two),
                 ", bitmap_label %d" % text_pystack(image, tmp / "d", "label", two) if lib else ""))
    if lib:
        kept = import_costs(image, ("supervisor", "adafruit_ticks", "adafruit_display_text",
                                    "adafruit_display_text.bitmap_label"), tmp / "l", [lib])
        out.write("  importing bitmap_label from .mpy keeps %d bytes (adafruit_ticks %d,\n"
                  "    adafruit_display_text %d, bitmap_label %d); frozen into the firmware its\n"
                  "    bytecode and strings stay in flash\n"
                  % (sum(n for _, n in kept[1:]), kept[1][1], kept[2][1], kept[3][1]))


def add_tool_options(ap):
    """Add the options that say where CircuitPython's VM and mpy-cross are to parser ap."""
    ap.add_argument("--circuitpython", metavar="PATH",
                    help="CircuitPython's VM (else $%s, else the tools folder: "
                    "tools/cptools.py)" % cptools.VM_VAR)
    ap.add_argument("--mpy-cross", metavar="PATH",
                    help="CircuitPython's mpy-cross for %s (else $%s, else the tools folder)"
                    % (cptools.VM_TARGET, cptools.MPY_CROSS_VAR))


def find_tools(args):
    """Return (vm, mpy_cross), the paths of the tools args name or the tools folder holds.

    Raises cptools.ToolError. Both are found and checked before the first run; one given by
    an option first, so that a wrong path is told even where the other tool is missing.
    """
    found = {}
    for key, path, find in sorted((("vm", args.circuitpython, find_vm),
                                   ("mpy_cross", args.mpy_cross,
                                    lambda p: cptools.find_mpy_cross(cptools.VM_TARGET, p)[0])),
                                  key=lambda t: t[1] is None):
        found[key] = find(path)
    return found["vm"], found["mpy_cross"]


def build_parser():
    """Return the command line's parser: where CircuitPython's VM and mpy-cross are."""
    from host_sim import options

    ap = options.Parser(prog="python -m bench.board", description=__doc__.split("\n")[0])
    add_tool_options(ap)
    return ap


def main(argv=None):
    """Print the board section; return the exit code (2: bad arguments or tools)."""
    ap = build_parser()
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        vm, mpy_cross = find_tools(args)
    except cptools.ToolError as e:
        ap.refuse(e)
    run(sys.stdout, vm, mpy_cross)
    return 0


if __name__ == "__main__":
    sys.exit(main())
