# SPDX-License-Identifier: MIT
"""The benchmark: `python -m bench` (or ./dev bench) prints the engine's figures.

Position and undo bytes; on MicroPython (tests/mp/run.mjs) the heap kept by importing the
engine and the other pure modules, bytes per Game including its undo log, bytes allocated per
operation; the random-play workload (bench/workload.py) in engine calls per second on
MicroPython and CPython, and the same workload through the list-of-lists baseline
(bench/baseline.py) as a ratio from the same run. Then the UI, saves and battery sections
(bench/ui.py, bench/saves.py, bench/power.py), the board's limits (bench/board.py) and its
speed (bench/speed.py). Nothing here is asserted: the numbers are the output.

    python -m bench [--out FILE]     also write the output to FILE (docs/benchmark.txt)
"""

import json
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import baseline  # noqa: E402
from bench.workload import playout  # noqa: E402
from freecell_mc.rules import engine  # noqa: E402
from freecell_mc.rules.deals import seeded_deck  # noqa: E402
from host_sim import headless_env, options  # noqa: E402

# The MicroPython side uses the same number (bench/mp_bench.py) so the workloads match.
STEPS = 1500


class Tee:
    """Write to stdout and keep a copy for --out."""

    def __init__(self):
        """Start with an empty copy."""
        self.parts = []

    def write(self, text):
        """Print text and keep it."""
        sys.stdout.write(text)
        sys.stdout.flush()
        self.parts.append(text)
        return len(text)

    def flush(self):
        """Flush stdout."""
        sys.stdout.flush()


def rate(calls, seconds):
    """Return calls per second as an int (0 if no time passed)."""
    return int(calls / seconds) if seconds > 0 else 0


def cpython_speed(make):
    """Return (engine calls, best seconds of 3) for the workload on CPython."""
    best = None
    calls = 0
    for _ in range(3):
        g = make()
        t = time.perf_counter()
        calls, _, _ = playout(g, seeded_deck, STEPS, 1)
        dt = time.perf_counter() - t
        best = dt if best is None or dt < best else best
    return calls, best


def micropython_figures():
    """Run bench/mp_bench.py under MicroPython; return its results, or raise with the output."""
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("node is missing; ./dev bench installs it")
    cmd = [node, str(ROOT / "tests/mp/run.mjs"), "--with", str(ROOT / "bench/workload.py"),
           "--with", str(ROOT / "bench/baseline.py"), str(ROOT / "bench/mp_bench.py")]
    if shutil.which("timeout"):
        cmd = ["timeout", "600"] + cmd
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=660)
    if proc.returncode != 0:
        raise RuntimeError("MicroPython run failed:\n" + proc.stdout + proc.stderr)
    out = {}
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            name, value = json.loads(line[7:])
            out[name] = value
    return out


def engine_section(out):
    """Print the engine's figures."""
    g = engine.Game()
    log_bytes = sum(len(c) for c in g._log)
    out.write("engine\n")
    out.write("  position: %d bytes (52 card bytes + 16 slot bytes)\n" % len(g.pos))
    out.write("  undo: %g bytes per move; the first %d moves preallocated (%d bytes), then\n"
              "        one more chunk of %d moves (%d bytes) per %d moves\n"
              % (log_bytes / engine.LOG_MOVES, engine.LOG_MOVES, log_bytes, engine.CHUNK_MOVES,
                 engine.CHUNK_BYTES, engine.CHUNK_MOVES))
    mp = micropython_figures()
    out.write("  MicroPython 1.27 (WebAssembly), heap kept after import:\n")
    out.write("    engine (with the package and compat): %d bytes\n" % mp["heap_after_engine"])
    for name, nbytes in mp["imports"][1:]:
        out.write("    + %-17s %6d bytes\n" % (name, nbytes))
    out.write("    all pure modules: %d bytes\n" % mp["heap_after_pure_modules"])
    dealt, played, n = mp["game_bytes"]
    bdealt, bplayed, bn = mp["baseline_game_bytes"]
    out.write("  bytes per game (MicroPython; engine object, position, undo log; heap figures\n"
              "  vary by a few hundred bytes between runs: the collector is conservative):\n")
    out.write("    engine:   %6d dealt, %6d after %d moves\n" % (dealt, played, n))
    out.write("    baseline: %6d dealt, %6d after %d moves (list of lists, history list)\n"
              % (bdealt, bplayed, bn))
    out.write("  bytes allocated per operation (MicroPython, mid-game):\n")
    out.write("    %-18s %7s %9s\n" % ("operation", "engine", "baseline"))
    for op in ("targets", "move", "undo", "capacity", "finish_available", "dead_end"):
        out.write("    %-18s %7d %9d\n" % (op, mp["ops"][op], mp["baseline_ops"][op]))
    seeded, ms, deal = mp["deal_bytes"]
    out.write("  bytes allocated per deal (MicroPython; garbage once per deal, 32-bit\n"
              "  arithmetic makes long ints there): seeded deck %d, Microsoft deck %d,\n"
              "  Game.deal %d\n" % (seeded, ms, deal))
    mcalls, mus = mp["speed"]
    bcalls, bus = mp["baseline_speed"]
    ccalls, cs = cpython_speed(engine.Game)
    cbcalls, cbs = cpython_speed(baseline.Game)
    out.write("  random-play workload (%d steps, %d engine calls; best of 3):\n" % (STEPS, ccalls))
    out.write("    %-12s %14s %14s %8s\n" % ("", "engine/s", "baseline/s", "ratio"))
    m, b = rate(mcalls, mus / 1e6), rate(bcalls, bus / 1e6)
    out.write("    %-12s %14d %14d %8.2f\n" % ("MicroPython", m, b, m / b if b else 0))
    c, cb = rate(ccalls, cs), rate(cbcalls, cbs)
    out.write("    %-12s %14d %14d %8.2f\n" % ("CPython", c, cb, c / cb if cb else 0))
    out.write("    (ratio = engine / baseline calls per second; the two engines agree on\n"
              "     every answer, so they ran the identical game)\n")
    if mcalls != ccalls or bcalls != ccalls or cbcalls != ccalls:
        out.write("  WARNING: the workloads differ between runs (%d %d %d %d calls)\n"
                  % (mcalls, bcalls, ccalls, cbcalls))


def module_section(out, name):
    """Run bench/<name>.py's run(out) after a blank line (an import error fails its section)."""
    out.write("\n")
    module = __import__("bench." + name, fromlist=["run"])
    module.run(out)


def build_parser():
    """Return the command line's parser."""
    p = options.Parser(prog="python -m bench", description="Print the benchmark's figures.")
    p.add_argument("--out", metavar="FILE", help="also write them to FILE")
    return p


def main(argv=None):
    """Print every section; return the exit code (1 if a section failed, 2: bad arguments)."""
    p = build_parser()
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    save = None
    if args.out is not None:
        try:
            save = options.out_file(args.out, "--out")  # before the minutes of the run
        except ValueError as e:
            p.refuse(e)
    headless_env()
    out = Tee()
    out.write("FreeCell MC benchmark: %s, CPython %s on %s, %d CPUs\n\n"
              % (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                 platform.python_version(), platform.machine(), os.cpu_count() or 0))
    failed = 0
    for name, section in (("engine", engine_section),
                          ("ui", lambda o: module_section(o, "ui")),
                          ("saves", lambda o: module_section(o, "saves")),
                          ("power", lambda o: module_section(o, "power")),
                          ("board", lambda o: module_section(o, "board")),
                          ("speed", lambda o: module_section(o, "speed"))):
        try:
            section(out)
        except Exception as e:  # noqa: BLE001  (one broken section must not hide the others' figures)
            out.write("\n%s section failed: %s: %s\n" % (name, type(e).__name__, e))
            failed = 1
    if save:
        Path(save).write_text("".join(out.parts))
    return failed


if __name__ == "__main__":
    sys.exit(main())
