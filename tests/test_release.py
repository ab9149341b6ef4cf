# SPDX-License-Identifier: MIT
"""The release zips a maker unzips onto CIRCUITPY (tools/release.py), booted in the simulator.

Each zip is unpacked onto a fresh simulated drive (host_sim --install) and boots: its boot.py
and code.py run, its save file is the one the game saves into, and a move is played. The
source zip runs its own game modules (the module path holds only its lib/ and host_sim);
the .mpy zips, which CPython cannot run, boot with the repository's game beside their
drive, and the one built with CircuitPython's real compiler is byte for byte the image the
VM's tests run. The .mpy zips here are built with stand-in compilers that answer --version
as CircuitPython 9's and 10's and write their major's header.
"""

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from test_cptools import CP9, CP10, fake_compiler

from host_sim import savefile
from tools import bundle, cptools, release

ROOT = Path(__file__).resolve().parent.parent
NAME = "t1"
# The game saves after a quiet spell: the wait lets it write the move.
SCRIPT = "move 1a\nexpect moves 1\nexpect screen table\nwait 5000\n"


@pytest.fixture(scope="module")
def zips(tmp_path_factory):
    """Return {kind: zip path} for 9.x, 10.x (stand-in compilers) and py."""
    tmp = tmp_path_factory.mktemp("release")
    out = {}
    for target, says in (("9.x", CP9), ("10.x", CP10)):
        exe = fake_compiler(tmp / ("mpy-cross-" + target), says, cptools.MPY_HEADER[target])
        out[target] = release.mpy_zip(tmp / "dist", NAME, exe, target, log=open(os.devnull, "w"))
    out["py"] = release.py_zip(tmp / "dist", NAME)
    return out


def entries(path):
    with zipfile.ZipFile(path) as zf:
        return [(i.filename, None if i.is_dir() else zf.read(i)) for i in zf.infolist()]


def files_of(path):
    return [(n, d) for n, d in entries(path) if d is not None]


def test_the_zips_are_named_as_adafruits_bundles(zips):
    assert zips["9.x"].name == "freecell-mc-9.x-mpy-t1.zip"
    assert zips["10.x"].name == "freecell-mc-10.x-mpy-t1.zip"
    assert zips["py"].name == "freecell-mc-py-t1.zip"


@pytest.mark.parametrize("kind", ["9.x", "10.x", "py"])
def test_each_zip_holds_the_drives_layout_in_the_order_a_board_needs(zips, kind):
    """The save file first (as the copy tool makes it), lib/, boot.py, and code.py last."""
    names = [n for n, _ in entries(zips[kind])]
    saves = [(p + "/" if d is None else p, d) for p, d in savefile.entries()]
    assert entries(zips[kind])[:len(saves)] == saves
    assert names[-2:] == ["boot.py", "code.py"]
    assert dict(files_of(zips[kind]))["code.py"] == (ROOT / "code.py").read_bytes()
    suffix = ".py" if kind == "py" else ".mpy"
    lib = sorted(n for n, d in files_of(zips[kind]) if n.startswith("lib/"))
    want = sorted(["lib/" + p.with_suffix(suffix).as_posix() for p in bundle.device_sources()]
                  + ["lib/adafruit_touchscreen" + suffix])
    assert lib == want
    assert not [n for n in names if n.startswith("/") or ".." in n or n.endswith(".bundle")]


@pytest.mark.parametrize("target", ["9.x", "10.x"])
def test_every_mpy_carries_its_majors_header(zips, target):
    mpys = [d for n, d in files_of(zips[target]) if n.endswith(".mpy")]
    assert len(mpys) > 20
    assert all(d.startswith(cptools.MPY_HEADER[target]) for d in mpys)


def test_the_source_zip_is_the_repositorys_source(zips):
    files = dict(files_of(zips["py"]))
    for rel in bundle.device_sources():
        assert files["lib/" + rel.as_posix()] == (ROOT / rel).read_bytes(), rel


def test_the_same_sources_make_the_same_zip(zips, tmp_path):
    assert release.py_zip(tmp_path, NAME).read_bytes() == zips["py"].read_bytes()


def boot(zip_path, tmp_path, pythonpath):
    """Run host_sim --install zip headless, playing SCRIPT; return the CompletedProcess."""
    (tmp_path / "s.txt").write_text(SCRIPT + "shot %s\n" % (tmp_path / "shot.png"))
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PYTEST_") and k not in ("PYTHONDONTWRITEBYTECODE",
                                                        "PYTHONPYCACHEPREFIX")}
    env["PYTHONPATH"] = os.pathsep.join(str(p) for p in pythonpath)
    return subprocess.run([sys.executable, "-m", "host_sim", "--headless", "--install",
                           str(zip_path), "--drive", str(tmp_path / "drive"), "--date",
                           "2026-12-02", "--script", str(tmp_path / "s.txt")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)


def test_the_source_zip_boots_its_own_game_and_plays_a_move(zips, tmp_path):
    """The module path: the zip's lib/ first, then the repository for host_sim alone."""
    unzipped = tmp_path / "unzipped"
    with zipfile.ZipFile(zips["py"]) as zf:
        zf.extractall(unzipped)
    run = boot(zips["py"], tmp_path, [unzipped / "lib", ROOT])
    assert run.returncode == 0, run.stdout + run.stderr
    # The game that ran was the zip's: Python compiled its modules where it found them.
    assert (unzipped / "lib" / "freecell_mc" / "ui" / "__pycache__").is_dir()
    assert (tmp_path / "shot.png").stat().st_size > 1000
    _the_game_saved_into_the_zips_save_file(tmp_path / "drive")


@pytest.mark.parametrize("target", ["9.x", "10.x"])
def test_each_mpy_zip_boots_on_a_fresh_drive_and_plays_a_move(zips, tmp_path, target):
    run = boot(zips[target], tmp_path, [ROOT])
    assert run.returncode == 0, run.stdout + run.stderr
    _the_game_saved_into_the_zips_save_file(tmp_path / "drive")


def _the_game_saved_into_the_zips_save_file(drive):
    """The drive holds the zip's files, and the move went into its save file."""
    from freecell_mc.saves import savelog
    from host_sim import circuitpy

    vol = circuitpy.open_drive(str(drive))
    with vol.open(savelog.LOG_PATH, "rb") as f:
        data = f.read()
    assert len(data) == len(savefile.blank())
    assert data != savefile.blank(), "no record was written into the zip's save file"


def test_install_refuses_what_is_not_a_release(tmp_path):
    from host_sim import sim

    (tmp_path / "notes.zip").write_bytes(b"not a zip")
    assert sim.main(["--headless", "--script", "x", "--install", str(tmp_path / "notes.zip")]) == 2
    with zipfile.ZipFile(tmp_path / "empty.zip", "w") as zf:
        zf.writestr("readme.txt", "hello")
    assert sim.main(["--headless", "--script", "x", "--install", str(tmp_path / "empty.zip")]) == 2


def test_with_the_real_compiler_the_zip_is_the_image_the_vm_runs(cp_mpy_cross, tmp_path):
    """`./dev release --mpy-cross`: its major's zip and the source zip; the .mpy zip holds
    exactly the files of `./dev bundle`'s image, byte for byte."""
    rc = release.main(["--mpy-cross", str(cp_mpy_cross), "--out", str(tmp_path / "dist")])
    assert rc == 0
    name = release.version()
    made = sorted(p.name for p in (tmp_path / "dist").iterdir())
    assert made == sorted(["freecell-mc-10.x-mpy-%s.zip" % name, "freecell-mc-py-%s.zip" % name])
    image = tmp_path / "CIRCUITPY"
    manifest = bundle.build(image, cp_mpy_cross, log=open(os.devnull, "w"))
    files = dict(files_of(tmp_path / "dist" / ("freecell-mc-10.x-mpy-%s.zip" % name)))
    assert {f: (image / f).read_bytes() for f in manifest["files"]} == {
        n: d for n, d in files.items() if not n.startswith("fcsave/")}
