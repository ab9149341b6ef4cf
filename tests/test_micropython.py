# SPDX-License-Identifier: MIT
"""The device modules under real MicroPython (WebAssembly in Node), compared with CPython.

Each script in tests/mp/mp_*.py prints ``RESULT <json>`` lines. Expected values are computed
here on CPython (or by running the same script under CPython) and compared. Missing node or
node_modules is a failure, never a skip: ./dev test installs both.
"""

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench.board import json_results as results
from freecell_mc.rules import deals, engine
from solutions import fcs_solutions

ROOT = Path(__file__).resolve().parent.parent
MP = ROOT / "tests" / "mp"
RUNNER = MP / "run.mjs"
# The runner cannot interrupt an endless loop in the interpreter, so the OS must.
TIMEOUT_S = 300


def node_command():
    """Return the command prefix that runs the MicroPython runner, or fail with the fix."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed; ./dev test installs it (apt-get install nodejs npm)")
    if not (MP / "node_modules" / "@micropython" / "micropython-webassembly-pyscript").is_dir():
        pytest.fail("tests/mp/node_modules is missing; run ./dev test (it runs npm ci there)")
    prefix = [node, str(RUNNER)]
    timeout = shutil.which("timeout")
    if timeout:
        prefix = [timeout, str(TIMEOUT_S)] + prefix
    return prefix


def run_mp(script, data=None, tmp_path=None, extra=(), heap=None):
    """Run tests/mp/<script> under MicroPython; return its results (fail on an exception)."""
    cmd = node_command()
    if heap:
        cmd += ["--heap", str(heap)]
    for path in extra:
        cmd += ["--with", str(ROOT / path)]
    if data is not None:
        path = tmp_path / (Path(script).stem + ".json")
        path.write_text(json.dumps(data))
        cmd += ["--input", str(path)]
    cmd.append(str(MP / script))
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True,
                          timeout=TIMEOUT_S + 30)
    assert proc.returncode == 0, "MicroPython run failed:\n" + proc.stdout + proc.stderr
    return results(proc.stdout)


def run_cpython(script, data, tmp_path):
    """Run the same script under CPython with the same input; return its results."""
    path = tmp_path / (Path(script).stem + ".cpython.json")
    path.write_text(json.dumps(data))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(MP)]))
    proc = subprocess.run([sys.executable, str(MP / script), str(path)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT_S)
    assert proc.returncode == 0, "CPython run failed:\n" + proc.stdout + proc.stderr
    return results(proc.stdout)


# -- the runner itself -------------------------------------------------------------------


@pytest.mark.parametrize(
    "source, code, stderr_has",
    [
        ("print('RESULT [\"ok\", 1]')\n", 0, ""),
        ("def f():\n    return 1 // 0\nf()\n", 1, "ZeroDivisionError"),
        ("import sys\nsys.exit(3)\n", 3, ""),
        ("def broken(:\n", 1, "SyntaxError"),
        ("import freecell_mc.no_such_module\n", 1, "ImportError"),
    ],
    ids=["ok", "exception", "exit-code", "syntax-error", "import-error"],
)
def test_runner_exit_code_follows_the_script(tmp_path, source, code, stderr_has):
    """A Python exception makes the runner exit non-zero, with the traceback on stderr."""
    script = tmp_path / "mp_probe.py"
    script.write_text(source)
    proc = subprocess.run(node_command() + [str(script)], cwd=ROOT, capture_output=True,
                          text=True, timeout=TIMEOUT_S + 30)
    assert proc.returncode == code, proc.stdout + proc.stderr
    assert stderr_has in proc.stderr
    if code == 0:
        assert results(proc.stdout) == {"ok": 1}


def test_runner_is_real_micropython_with_the_pure_modules(tmp_path):
    """The interpreter is MicroPython (small ints end at 2**30) and sees the pure modules."""
    script = tmp_path / "mp_probe.py"
    script.write_text(
        "import sys, json, gc, micropython\n"
        "print('RESULT ' + json.dumps(['impl', sys.implementation.name]))\n"
        "print('RESULT ' + json.dumps(['maxsize', sys.maxsize]))\n"
        "print('RESULT ' + json.dumps(['modules', MP_PURE_MODULES]))\n"
    )
    out = results(subprocess.run(node_command() + [str(script)], cwd=ROOT, capture_output=True,
                                 text=True, timeout=TIMEOUT_S + 30).stdout)
    assert out["impl"] == "micropython"
    assert out["maxsize"] == 2**31 - 1
    pure = ("__init__", "compat", "dates", "play",
            "rules/__init__", "rules/cards", "rules/deals", "rules/engine", "rules/notation",
            "saves/__init__", "saves/record", "saves/settings", "saves/savelog", "saves/notices",
            "saves/policy", "saves/loading",
            "saves/stats",
            "hardware/__init__", "hardware/backlight", "hardware/clock", "hardware/rtcchip",
            "hardware/carry", "hardware/taps",
            "ui/__init__", "ui/layout")
    pkg = ROOT / "freecell_mc"
    expected = sorted(p.relative_to(pkg).with_suffix("").as_posix() for p in pkg.rglob("*.py")
                      if p.relative_to(pkg).with_suffix("").as_posix() in pure)
    assert sorted(out["modules"]) == expected
    assert "rules/engine" in out["modules"] and "rules/deals" in out["modules"]


def test_runner_phases_free_earlier_garbage_and_keep_line_numbers(tmp_path):
    """`# mp-phase` splits a script: the next phase sees earlier garbage freed, same globals."""
    script = tmp_path / "mp_probe.py"
    script.write_text(
        "import gc, json\n"
        "def heap():\n"
        "    gc.collect()\n"
        "    return gc.mem_alloc()\n"
        "BASE = heap()\n"
        "junk = [bytearray(1000) for _ in range(50)]\n"
        "del junk\n"
        "SAME = heap() - BASE\n"
        "# mp-phase\n"
        "print('RESULT ' + json.dumps(['same', SAME]))\n"
        "print('RESULT ' + json.dumps(['next', heap() - BASE]))\n"
        "# mp-phase\n"
        "1 // 0\n"
    )
    proc = subprocess.run(node_command() + [str(script)], cwd=ROOT, capture_output=True,
                          text=True, timeout=TIMEOUT_S + 30)
    out = results(proc.stdout)
    # Inside one call nothing is freed; a phase later the 50 KB are gone.
    assert out["same"] >= 50000
    assert out["next"] < 5000
    assert proc.returncode == 1 and 'mp_probe.py", line 13' in proc.stderr


# -- deals -------------------------------------------------------------------------------


def deal_inputs():
    """Return seeds, dates, MS numbers, codes and mistyped codes to deal on both sides."""
    rnd = random.Random(20261130)
    seeds = [0, 1, 2, 0x9E3779B9, 2**30 - 1, 2**30, 2**31 - 1, 2**31, 2**32 - 1]
    # 0x9E3779B9 makes fmix32's input 0: the state-is-zero branch.
    seeds += [rnd.randrange(2**32) for _ in range(30)]
    dates = [(2026, 11, 30), (2026, 12, 1), (2026, 12, 31), (2027, 1, 1), (2028, 2, 29),
             (2000, 1, 1), (2099, 12, 31)]
    dates += [(rnd.randrange(2025, 2100), rnd.randrange(1, 13), rnd.randrange(1, 29))
              for _ in range(15)]
    ms = [1, 2, 617, 11982, 1000000, 2**31 - 1, 2**31, 2**32 - 1]
    ms += [rnd.randrange(1, 1000001) for _ in range(15)]
    codes = [(deals.KIND_SEED, 0, 4), (deals.KIND_SEED, 2**32 - 1, 1),
             (deals.KIND_DAILY, 20261130, 4), (deals.KIND_DAILY, 20280229, 3),
             (deals.KIND_MS, 1, 4), (deals.KIND_MS, 11982, 2), (deals.KIND_MS, 1000000, 4)]
    typos = ["24-20261130-0", "42-20261130-5", "", "abc", "1", "24-20261131-", "99999"]
    for kind, number, cells in codes:
        code = deals.deal_code(kind, number, cells)
        digits = code.replace("-", "")
        i = rnd.randrange(len(digits) - 1)
        typos.append(digits[:i] + str((int(digits[i]) + 1) % 10) + digits[i + 1:])
        if digits[i] != digits[i + 1]:
            typos.append(digits[:i] + digits[i + 1] + digits[i] + digits[i + 2:])
    return {"seeds": seeds, "dates": dates, "ms": ms, "codes": codes, "typos": typos}


def parse_result(text):
    """Return [text, error message or None] as the script reports it."""
    try:
        deals.parse_code(text)
        return [text, None]
    except ValueError as e:
        return [text, str(e)]


def test_deals_match_cpython(tmp_path):
    """Seeded, daily and Microsoft decks and deal codes are identical on MicroPython."""
    data = deal_inputs()
    seeded = [[s, deals.seeded_deck(s)] for s in data["seeds"]]
    daily = [[deals.daily_seed(*d), deals.seeded_deck(deals.daily_seed(*d))]
             for d in data["dates"]]
    ms = [[n, deals.ms_deck(n)] for n in data["ms"]]
    data["expected"] = {"seeded": seeded, "daily": daily, "ms": ms}
    got = run_mp("mp_deals.py", data, tmp_path)
    assert got["compared"] == len(seeded) + len(daily) + len(ms)
    assert got["seeded"] == seeded
    assert got["daily"] == daily
    assert got["ms"] == ms
    codes = [[deals.deal_code(*c), list(deals.parse_code(deals.deal_code(*c)))]
             for c in data["codes"]]
    assert got["codes"] == codes
    assert [c[1] for c in got["codes"]] == [list(c) for c in data["codes"]]
    assert got["typos"] == [parse_result(t) for t in data["typos"]]
    # Every mistyped code is rejected, on both interpreters.
    assert all(err is not None for _, err in got["typos"])


# -- the engine --------------------------------------------------------------------------


@pytest.mark.slow
def test_engine_operations_allocate_nothing(tmp_path):
    """targets, fit, move, undo, capacity, finish and dead-end checks allocate 0 bytes."""
    data = {"seeds": [1, 20261130, 3000000000], "cells": [4, 2], "steps": 50,
            "long_game": 3100}
    got = run_mp("mp_alloc.py", data, tmp_path)
    base, seen = got["harness"]
    assert base == 0 and seen > 0, "the measuring harness is off"
    required = ["targets", "fit", "move", "undo", "capacity", "finish_available", "dead_end"]
    for op in required + ["won", "run_len", "column_len", "column_cards", "top", "finish_step"]:
        assert got["count"][op] > 0, "never measured " + op
        assert got["worst"][op] == 0, "%s allocates %d bytes" % (op, got["worst"][op])
    assert got["count"]["move"] >= 100 and got["count"]["undo"] >= 10
    # The one documented exception: a game past 2,048 moves gets one more chunk of undo log
    # at the first move of each engine.CHUNK_MOVES (1.5 bytes a move), and undo back to the
    # deal allocates nothing.
    grew = got["long_game"]["grew"]
    assert [i for i, _ in grew] == list(range(engine.LOG_MOVES, 3100, engine.CHUNK_MOVES))
    assert all(engine.CHUNK_BYTES <= nbytes <= engine.CHUNK_BYTES + 64 for _, nbytes in grew), grew
    assert got["long_game"]["undo_worst"] == 0
    # A game set aside for the other slot hands its undo log over whole: what it allocates
    # is its 68-byte position and short lists, no more at 3,100 moves than at one (where
    # the game's list takes back the three chunks the move did not use).
    long, short = got["long_game"]["kept_heap"]
    assert 68 <= long <= short <= 200, got["long_game"]


def test_engine_behaves_the_same_on_both_interpreters(tmp_path):
    """Supermoves, undo round trips, dead end, finish and random play agree with CPython."""
    data = {"seeds": [1, 20261130, 4294967290], "round_trip_steps": 300, "playout_steps": 600}
    extra = ["bench/workload.py", "bench/baseline.py"]
    got = run_mp("mp_engine.py", data, tmp_path, extra=extra)
    want = run_cpython("mp_engine.py", data, tmp_path)
    assert got == want
    assert got["capacity"] == 8 and got["finish"] == 24
    assert all(n > 0 for n in got["round_trip"])
    assert len(got["playout"]) == 3 and all(run[0] > 10000 for run in got["playout"])


# -- the table's pure modules --------------------------------------------------------------


def test_taps_and_layout_agree_and_allocate_nothing_per_touch(tmp_path):
    """Geometry, hits and derived taps match CPython; feed() and hit() allocate 0 bytes."""
    got = run_mp("mp_taps_layout.py", {}, tmp_path)
    want = run_cpython("mp_taps_layout.py", {}, tmp_path)
    assert got.pop("alloc") == [0, 0]
    assert got == want
    # 2 sizes x 4 cell counts, and the clean tap lands at its first two readings' mean,
    # at the second (10 ms in), not at the release.
    assert len(got["geometry"]) == 8
    assert got["taps"][0] == [[101, 50, 10]]


# -- notation: Freecell Solver's solutions -------------------------------------------------


@pytest.mark.slow
def test_fcs_solutions_replay_the_same_on_both_interpreters(tmp_path):
    """Every fc-solve solution wins through notation and the engine on MicroPython too."""
    data = {"solutions": [[d, c, " ".join(m)] for d, c, m in fcs_solutions()]}
    assert len(data["solutions"]) >= 100
    got = run_mp("mp_solutions.py", data, tmp_path)
    want = run_cpython("mp_solutions.py", data, tmp_path)
    assert got == want
    assert [row[0] for row in got["solutions"]] == [s[0] for s in data["solutions"]]
    # One move per notation token: a carried run counts once.
    assert [row[1] for row in got["solutions"]] == [len(s[2].split()) for s in data["solutions"]]


# -- the engine's own pytest modules, unchanged ---------------------------------------------

# Engine test modules to run under MicroPython. test_engine.py and test_notation.py must stay
# runnable there (plain asserts, pytest.raises, parametrize: STYLE.md 10); the others run
# when their imports exist on MicroPython.
CORE_MODULES = ["test_engine", "test_notation"]
OTHER_MODULES = ["test_deals", "test_engine_capacity"]
# Imports that only CPython has; a module needing one cannot run there, and says so.
CPYTHON_ONLY = ("hypothesis", "subprocess", "pathlib", "shutil", "tempfile", "random")


def needs_fixture(module):
    """Return the names of module's tests that take pytest fixtures (no parameters)."""
    import importlib
    import inspect

    mod = importlib.import_module(module)
    out = set()
    for name in dir(mod):
        fn = getattr(mod, name)
        if name.startswith("test_") and callable(fn) and not hasattr(fn, "pytestmark"):
            if inspect.signature(fn).parameters:
                out.add(name)
    return out


def test_engine_test_modules_pass_under_micropython(tmp_path):
    """The engine's pytest modules run unchanged on MicroPython and every test passes."""
    modules = [m for m in CORE_MODULES + OTHER_MODULES
               if (ROOT / "tests" / (m + ".py")).exists()]
    # The card-by-card capacity searches take minutes there; the first cases are the cheap ones.
    data = {"modules": modules, "max_params": {"test_engine_capacity": 8}}
    extra = ["tests/%s.py" % m for m in modules] + ["tests/positions.py"]
    got = run_mp("mp_pytests.py", data, tmp_path, extra=extra)["outcomes"]
    problems = []
    ran = {}
    for module, test, status, msg in got:
        if status == "passed":
            ran[module] = ran.get(module, 0) + 1
        elif status == "fixture" and test in needs_fixture(module):
            continue
        elif (test == "<import>" and module not in CORE_MODULES
              and any("'%s'" % name in msg for name in CPYTHON_ONLY)):
            continue
        else:
            problems.append("%s::%s %s: %s" % (module, test, status, msg))
    assert not problems, "under MicroPython:\n" + "\n".join(problems)
    for module in CORE_MODULES:
        assert ran.get(module, 0) > 0, module + " ran no test under MicroPython"
