# SPDX-License-Identifier: MIT
"""Malformed values for every option of the simulator and the host tools.

Each case runs `python -m host_sim ...` (in this process, through host_sim.__main__) and
expects exit status 2 with one line on stderr that names the problem, no traceback and
nothing on stdout. The options are taken from the parsers themselves: an option added
without a case here fails `test_every_option_has_a_malformed_case`. Huge inputs are
refused after reading at most options.MAX_TEXT bytes (asserted on the memory traced).
"""

import io
import os
import subprocess
import sys
import tracemalloc
import zipfile

import pytest

from freecell_mc.rules import deals
from host_sim import __main__ as entry
from host_sim import circuitpy, fatformat, flash, options, sim, tools

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HUGE = 63 << 20  # the size of the board file that once took 54 s and 2.4 GB to refuse
CODE_2 = deals.deal_code(deals.KIND_MS, 5, 2)  # a real code, for two free cells


@pytest.fixture
def files(tmp_path):
    """Input files of every kind of bad, as a dict of name -> path."""
    board = tools.notation.board_text(_ms1())
    f = {
        "dir": tmp_path / "folder",
        "missing": tmp_path / "nothing-here.txt",
        "good_board": tmp_path / "board.txt",
        "latin1": tmp_path / "latin1.txt",
        "huge": tmp_path / "huge.txt",
        "two_found": tmp_path / "two_found.txt",
        "five_cells": tmp_path / "five_cells.txt",
        "good_script": tmp_path / "good.txt",
        "bad_script": tmp_path / "bad_script.txt",
        "long_wait": tmp_path / "long_wait.txt",
        "long_move": tmp_path / "long_move.txt",
        "shot_txt": tmp_path / "shot_txt.txt",
        "shot_nodir": tmp_path / "shot_nodir.txt",
        "small_nvm": tmp_path / "small.bin",
        "no_code": tmp_path / "no_code",
        "zip_no_code": tmp_path / "lib-only.zip",
        "zip_code": tmp_path / "release.zip",
    }
    for name in ("empty", "zeros", "garbage", "short", "dir"):
        f["drive_" + name] = tmp_path / ("drive_" + name)
        f["drive_" + name].mkdir()
    image = {k: f["drive_" + k] / circuitpy.IMAGE for k in ("empty", "zeros", "garbage", "short")}
    image["empty"].write_bytes(b"")
    with open(image["zeros"], "wb") as h:
        h.truncate(flash.FLASH_BYTES)  # sparse: 8 MB of zeros, no disk used
    with open(image["garbage"], "wb") as h:
        h.write(bytes(range(256)) * 2)
        h.truncate(flash.FLASH_BYTES)
    image["short"].write_bytes(b"\xeb" * 4096)
    (f["drive_dir"] / circuitpy.IMAGE).mkdir()
    f["dir"].mkdir()
    f["no_code"].mkdir()
    f["good_board"].write_text(board)
    f["latin1"].write_bytes(b"1a 2b \xe9t\xe9\n")
    with open(f["huge"], "wb") as h:
        h.truncate(HUGE)  # sparse: 63 MB long, no disk used
    f["two_found"].write_text("Foundations: H-0\nFoundations: S-0\n" + board)
    f["five_cells"].write_text("Freecells: - - - - -\n" + board)
    f["good_script"].write_text("wait 10\n")
    f["bad_script"].write_text("tap 1 2\nfly away\n")
    f["long_wait"].write_text("wait 99999999999999999999\n")
    f["long_move"].write_text("move " + "3" * 100000 + "\n")
    f["shot_txt"].write_text("shot out.txt\n")
    f["shot_nodir"].write_text("shot %s\n" % (tmp_path / "no" / "such" / "x.png"))
    f["small_nvm"].write_bytes(b"my notes, not a flash block\n")
    with zipfile.ZipFile(f["zip_no_code"], "w") as z:
        z.writestr("lib/freecell_mc/__init__.py", "")
    with zipfile.ZipFile(f["zip_code"], "w") as z:
        z.writestr("code.py", "")
    return {k: str(v) for k, v in f.items()}


def _ms1():
    g = tools.Game(4)
    g.deal(deals.ms_deck(1))
    return g


HEADLESS = ["--headless", "--script", "{good_script}"]

# (option under test, argv, what the one line must say). {name} is a path from `files`.
SIM_CASES = [
    ("--board", ["--board", "zx81"] + HEADLESS, "invalid choice: 'zx81'"),
    ("--headless", ["--headless"], "--headless needs --script FILE"),
    ("--headless", ["--headless=yes", "--script", "{good_script}"], "ignored explicit argument"),
    ("--script", ["--headless", "--script", "{missing}"], "cannot read"),
    ("--script", ["--headless", "--script", "{dir}"], "is a folder, not a script file"),
    ("--script", ["--headless", "--script", "{latin1}"], "is not UTF-8 text (byte 0xe9"),
    ("--script", ["--headless", "--script", "{huge}"], "is larger than 1 MB"),
    ("--script", ["--headless", "--script", "{bad_script}"], "line 2: unknown command 'fly'"),
    ("--script", ["--headless", "--script", "{long_wait}"], "line 1: wait needs milliseconds"),
    ("--script", ["--headless", "--script", "{shot_txt}"], "line 1: shot must be a .png file"),
    ("--script", ["--headless", "--script", "{shot_nodir}"], "line 1: shot"),
    ("--script", ["--script"], "expected one argument"),
    ("--script", ["--headless", "--script", "{long_move}"], "line 1: move needs one move"),
    ("--scale", ["--scale", "0"] + HEADLESS, "the window scale is 1 to 8, not 0"),
    ("--scale", ["--scale", "10000"] + HEADLESS, "the window scale is 1 to 8"),
    ("--scale", ["--scale", "two"] + HEADLESS, "the window scale is 1 to 8, not 'two'"),
    ("--nvm", ["--nvm", "{dir}"] + HEADLESS, "is a folder"),
    ("--nvm", ["--nvm", "{small_nvm}"] + HEADLESS, "holds 28 bytes, not an 8 KB flash block"),
    ("--nvm", ["--nvm", "{missing}/n.bin"] + HEADLESS, "does not exist"),
    ("--drive", ["--drive", "{good_board}"] + HEADLESS, "is a file, not a folder"),
    ("--drive", ["--drive", "{good_board}/sub"] + HEADLESS, "is a file, not a folder"),
    ("--drive", ["--drive", "/proc/no-such-folder"] + HEADLESS, "cannot write in /proc"),
    ("--drive", ["--drive", "{drive_empty}"] + HEADLESS,
     "circuitpy.img, which is not a FAT volume the board can mount: it is empty; the board "
     "would format it"),
    ("--drive", ["--drive", "{drive_zeros}"] + HEADLESS, "its boot sector is all zeros"),
    ("--drive", ["--drive", "{drive_garbage}"] + HEADLESS, "its boot sector has no 55 AA"),
    ("--drive", ["--drive", "{drive_short}"] + HEADLESS,
     "it holds 4096 bytes, not the board's 8 MB flash (8388608 bytes)"),
    ("--drive", ["--drive", "{drive_dir}"] + HEADLESS, "it is not a plain file"),
    ("--date", ["--date", "26-11-30"] + HEADLESS, "four-digit year"),
    ("--date", ["--date", "2026-02-30"] + HEADLESS, "No such date: 2026-02-30"),
    ("--date", ["--date", "1999-12-31"] + HEADLESS, "years 2000 to 2099, not 1999"),
    ("--date", ["--date", "2026-xx-01"] + HEADLESS, "four-digit year"),
    ("--ext-rtc", ["--ext-rtc", "ds1307"] + HEADLESS, "invalid choice: 'ds1307'"),
    ("--seed", ["--seed", "-1"] + HEADLESS, "seeds are whole numbers 0 to 4294967295, not -1"),
    ("--seed", ["--seed", "4294967296"] + HEADLESS, "seeds are whole numbers 0 to 4294967295"),
    ("--seed", ["--seed", "1e3"] + HEADLESS, "not '1e3'"),
    ("--seed", ["--seed", "9" * 5000] + HEADLESS, "seeds are whole numbers"),
    ("--daily", ["--daily", "26-11-30"] + HEADLESS, "four-digit year, e.g. 2026-11-30"),
    ("--daily", ["--daily", "2026-13-01"] + HEADLESS, "No such date: 2026-13-01"),
    ("--daily", ["--daily", "today"] + HEADLESS, "dates are YYYY-MM-DD"),
    ("--ms", ["--ms", "0"] + HEADLESS, "Microsoft deals are numbered 1 to 1,000,000"),
    ("--ms", ["--ms", "1000001"] + HEADLESS, "Microsoft deals are numbered 1 to 1,000,000"),
    ("--ms", ["--ms", "4294967295"] + HEADLESS, "Microsoft deals are numbered 1 to 1,000,000"),
    ("--ms", ["--ms", "1", "--seed", "2"] + HEADLESS, "choose one of --seed, --daily, --ms"),
    ("--code", ["--code", "34-1-1"] + HEADLESS, "The check digit does not match"),
    ("--code", ["--code", "ab-cd"] + HEADLESS, "A code has digits only"),
    ("--code", ["--code", "1" * 5000] + HEADLESS, "That code is too long"),
    ("--cells", ["--cells", "5"] + HEADLESS, "free cells are 1 to 4, not 5"),
    ("--cells", ["--cells", "0"] + HEADLESS, "free cells are 1 to 4, not 0"),
    ("--cells", ["--code", CODE_2, "--cells", "4"] + HEADLESS, "the code is for 2 free cells"),
    ("--step-ms", ["--step-ms", "0"] + HEADLESS, "a poll takes 1 to 1000 ms"),
    ("--step-ms", ["--step-ms", "99999999"] + HEADLESS, "a poll takes 1 to 1000 ms"),
    ("--no-usb", ["--no-usb=1"] + HEADLESS, "ignored explicit argument '1'"),
    ("--hold-at-boot", ["--hold-at-boot=1"] + HEADLESS, "ignored explicit argument '1'"),
    ("--root", ["--root", "{no_code}"] + HEADLESS, "has no code.py"),
    ("--root", ["--root", "{missing}"] + HEADLESS, "has no code.py"),
    ("--shot", ["--shot", "{dir}/end.txt"] + HEADLESS, "--shot must be a .png file"),
    ("--install", ["--install", "{missing}"] + HEADLESS, "is not a zip file we can read"),
    ("--install", ["--install", "{good_board}"] + HEADLESS,
     "is not a zip file we can read (File is not a zip file)"),
    ("--install", ["--install", "{zip_no_code}"] + HEADLESS, "has no code.py at its top"),
    ("--install", ["--install", "{zip_code}", "--drive", "{drive_garbage}"] + HEADLESS,
     "holds a drive already; --install needs a new one"),
    ("--shot", ["--shot", "{missing}/end.png"] + HEADLESS, "does not exist"),
    ("--shot", ["--shot", "{dir}"] + HEADLESS, "must be a .png file"),
    ("--quiet", ["--quiet=no"] + HEADLESS, "ignored explicit argument 'no'"),
    ("--help", ["--help=me"], "ignored explicit argument 'me'"),
    ("", ["--fast"] + HEADLESS, "unrecognized arguments: --fast"),
]

TOOL_CASES = []
for _tool in ("deal", "replay"):
    _t = [_tool]
    TOOL_CASES += [
        ("--seed", _t + ["--seed", "-1"], "seeds are whole numbers 0 to 4294967295, not -1"),
        ("--seed", _t + ["--seed", "4294967296"], "seeds are whole numbers 0 to 4294967295"),
        ("--seed", _t + ["--seed", "x"], "not 'x'"),
        ("--daily", _t + ["--daily", "26-11-30"], "four-digit year"),
        ("--daily", _t + ["--daily", "2026-02-30"], "No such date: 2026-02-30"),
        ("--ms", _t + ["--ms", "0"], "Microsoft deals are numbered 1 to 1,000,000 "),
        ("--ms", _t + ["--ms", "1000001"], "Microsoft deals are numbered 1 to 1,000,000"),
        ("--ms", _t + ["--ms", "1", "--seed", "1"], "not allowed with argument"),
        ("--code", _t + ["--code", "34-1-1"], "The check digit does not match"),
        ("--code", _t + ["--code", "34"], "That code is too short"),
        ("--code", _t + ["--code", CODE_2, "--cells", "3"], "the code is for 2 free cells"),
        ("--board", _t + ["--board", "{missing}"], "cannot read"),
        ("--board", _t + ["--board", "{dir}"], "is a folder, not a board file"),
        ("--board", _t + ["--board", "{latin1}"], "is not UTF-8 text (byte 0xe9 at offset 6)"),
        ("--board", _t + ["--board", "{huge}"], "is larger than 1 MB: not a board file"),
        ("--board", _t + ["--board", "{two_found}"], "line 2: a second Foundations line"),
        ("--board", _t + ["--board", "{five_cells}"], "5 free cells given"),
        ("--board", _t + ["--board", "{good_board}", "--cells", "1", "--ms", "1"],
         "not allowed with argument"),
        ("--cells", _t + ["--ms", "1", "--cells", "5"], "free cells are 1 to 4, not 5"),
        ("--cells", _t + ["--ms", "1", "--cells", "four"], "free cells are 1 to 4, not 'four'"),
        ("", _t, "one of the arguments --seed --daily --ms --code --board is required"),
        ("--help", _t + ["--help=me"], "ignored explicit argument 'me'"),
    ]
TOOL_CASES += [
    ("--moves", ["replay", "--ms", "1", "--moves", "{missing}"], "cannot read"),
    ("--moves", ["replay", "--ms", "1", "--moves", "{dir}"], "is a folder, not a moves file"),
    ("--moves", ["replay", "--ms", "1", "--moves", "{latin1}"], "is not UTF-8 text (byte 0xe9"),
    ("--moves", ["replay", "--ms", "1", "--moves", "{huge}"], "larger than 1 MB: not a moves"),
    ("--moves", ["replay", "--board", "-"], "--board - reads the board from stdin, so the moves"),
    ("--moves", ["replay", "--board", "-", "--moves", "-"], "so the moves need --moves FILE"),
]


def _fill(argv, files):
    return [a.format(**files) if "{" in a else a for a in argv]


def _run(argv, capsys, monkeypatch, stdin=""):
    """Run python -m host_sim argv in this process; return (code, out, err)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = entry.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _one_clean_line(code, out, err, message):
    assert code == 2, (code, err)
    assert out == ""
    assert "Traceback" not in err
    assert err.endswith("\n") and err.count("\n") == 1, err
    # One style for every refusal, the simulator's and the tools': `COMMAND: error: WHAT`.
    assert err.startswith("python -m host_sim") and ": error: " in err, err
    assert message in err, err


@pytest.mark.parametrize("option,argv,message", SIM_CASES + TOOL_CASES,
                         ids=[" ".join(c[1])[:60] for c in SIM_CASES + TOOL_CASES])
def test_malformed_values_give_one_line_and_status_2(option, argv, message, files, capsys,
                                                    monkeypatch):
    argv = _fill(argv, files)
    code, out, err = _run(argv, capsys, monkeypatch, stdin=open(files["good_board"]).read())
    _one_clean_line(code, out, err, message)


def _options(parser):
    return {s for a in parser._actions for s in a.option_strings if s.startswith("--")}


def test_every_option_has_a_malformed_case():
    sim_opts = _options(sim.build_parser())
    tool_opts = _options(tools._parser("deal")) | _options(tools._parser("replay"))
    assert {"--script", "--nvm", "--drive", "--ms", "--root", "--shot"} <= sim_opts
    assert {"--board", "--moves", "--cells"} <= tool_opts
    assert sim_opts - {c[0] for c in SIM_CASES} == set()
    for tool in ("deal", "replay"):
        covered = {c[0] for c in TOOL_CASES if c[1][0] == tool}
        assert _options(tools._parser(tool)) - covered == set(), tool


@pytest.mark.parametrize("argv", [["deal", "--board", "{huge}"],
                                  ["replay", "--ms", "1", "--moves", "{huge}"],
                                  ["--headless", "--script", "{huge}"]])
def test_a_huge_file_is_refused_without_reading_it(argv, files, capsys, monkeypatch):
    tracemalloc.start()
    try:
        code, out, err = _run(_fill(argv, files), capsys, monkeypatch)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    _one_clean_line(code, out, err, "larger than 1 MB")
    assert peak < options.MAX_TEXT // 4  # not even a part of it is read: the size decides


def test_a_huge_stdin_is_read_only_up_to_the_cap(capsys, monkeypatch):
    big = io.TextIOWrapper(io.BytesIO(b"# " + b"x" * (4 * options.MAX_TEXT)), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", big)
    tracemalloc.start()
    try:
        code = entry.main(["deal", "--board", "-"])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    out, err = capsys.readouterr()
    _one_clean_line(code, out, err, "stdin is larger than 1 MB: not a board file")
    assert big.buffer.tell() == options.MAX_TEXT + 1
    assert peak < 4 * options.MAX_TEXT


def test_a_move_too_long_to_be_one_is_named_in_a_short_line(capsys, monkeypatch):
    code, out, err = _run(["replay", "--ms", "1"], capsys, monkeypatch, stdin="2a " + "1" * 10**6)
    assert code == 1 and out.splitlines()[-1] == "not won"
    assert err == "move 2 (111111111111...) refused: not a move (too long)\n"


def test_a_byte_order_mark_is_not_part_of_a_board_or_moves_file(tmp_path, capsys, monkeypatch):
    board = tmp_path / "bom_board.txt"
    moves = tmp_path / "bom_moves.txt"
    code, plain, _ = _run(["deal", "--ms", "1"], capsys, monkeypatch)
    board.write_bytes(b"\xef\xbb\xbf" + plain.encode())
    moves.write_bytes(b"\xef\xbb\xbf2a 3b\n")
    code, out, err = _run(["deal", "--board", str(board)], capsys, monkeypatch)
    assert code == 0 and out == plain and err == ""
    code, out, err = _run(["replay", "--board", str(board), "--moves", str(moves)], capsys,
                          monkeypatch)
    assert code == 0 and err == "" and out.splitlines()[1] == "Freecells: 9C 2H - -"


def test_the_host_tools_take_the_games_microsoft_range(capsys, monkeypatch):
    code, out, _ = _run(["deal", "--ms", "1000000"], capsys, monkeypatch)
    assert code == 0 and len(out.splitlines()) == 8
    code, out, _ = _run(["deal", "--code", deals.deal_code(deals.KIND_MS, 1000000, 4)], capsys,
                        monkeypatch)
    assert code == 0 and len(out.splitlines()) == 8
    code, out, err = _run(["deal", "--help"], capsys, monkeypatch)
    assert code == 0 and "1 to 1,000,000, as on the board" in " ".join(out.split())


def test_the_window_hold_at_boot_holds_the_screen_without_a_script(tmp_path):
    s = sim.Simulator(headless=False, hold_at_boot=True, nvm_path=str(tmp_path / "n.bin"),
                      drive=str(tmp_path / "d"))
    try:
        s.phase = "boot"
        assert s.touch_read() == (s.width // 2, s.height // 2, 32000)
    finally:
        s.close()


def _subprocess(argv, env_drop=(), **env_set):
    env = {k: v for k, v in os.environ.items() if k not in env_drop}
    env.update(PYTHONPATH=ROOT, **env_set)
    return subprocess.run([sys.executable, "-m", "host_sim"] + argv, env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_from_the_command_line_a_bad_file_is_one_line_and_status_2(files):
    r = _subprocess(["replay", "--ms", "1", "--moves", files["latin1"]])
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr.count("\n") == 1 and "is not UTF-8 text" in r.stderr
    r = _subprocess(["--nvm", files["dir"], "--headless", "--script", files["good_script"]])
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "is a folder" in r.stderr


def test_a_window_with_no_display_says_so_and_exits_2(tmp_path):
    r = _subprocess(["--nvm", str(tmp_path / "n.bin"), "--drive", str(tmp_path / "d")],
                    env_drop=("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == ("python -m host_sim: error: cannot open the window: no display "
                        "(DISPLAY and WAYLAND_DISPLAY are not set); run it with --headless "
                        "--script FILE, or where a desktop is\n")


def test_a_window_that_sdl_would_put_offscreen_says_so_and_exits_2(tmp_path):
    # A DISPLAY that answers nothing: SDL gives up on X11 and quietly falls back to its
    # offscreen driver, where the game would run unseen for as long as it likes.
    r = _subprocess(["--nvm", str(tmp_path / "n.bin"), "--drive", str(tmp_path / "d")],
                    env_drop=("SDL_VIDEODRIVER", "WAYLAND_DISPLAY"), DISPLAY=":97")
    assert r.returncode == 2 and r.stdout == ""
    assert "python -m host_sim: error: cannot open the window: SDL found no screen" in r.stderr
    assert "Traceback" not in r.stderr and "polls" not in r.stderr


@pytest.mark.parametrize("board,size", [("pyportal", (320, 240)), ("titano", (480, 320))])
def test_a_shot_as_the_first_line_shows_the_first_frame(board, size, tmp_path, capsys):
    from PIL import Image

    first, later = tmp_path / "first.png", tmp_path / "later.png"
    script = tmp_path / "s.txt"
    script.write_text("shot %s\nwait 200\nshot %s\n" % (first, later))
    argv = ["--headless", "--quiet", "--board", board, "--ms", "1", "--date", "2026-11-30",
            "--script", str(script)]
    assert sim.main(argv) == 0, capsys.readouterr().err
    a, b = Image.open(first), Image.open(later)
    assert a.size == size
    # Not the black of a screen nothing was drawn on: the table, as it stays until a tap.
    assert a.convert("L").getextrema() != (0, 0)
    assert a.tobytes() == b.tobytes()


def test_a_drive_image_that_is_no_fat_volume_is_left_as_it_is(files, capsys, monkeypatch,
                                                                tmp_path):
    """Refused before the board starts: nothing is written to the image or the nvm."""
    image = os.path.join(files["drive_garbage"], circuitpy.IMAGE)
    before = open(image, "rb").read()
    nvm = tmp_path / "nvm.bin"
    code, out, err = _run(["--drive", files["drive_garbage"], "--nvm", str(nvm)] + HEADLESS[:1]
                          + ["--script", files["good_script"]], capsys, monkeypatch)
    _one_clean_line(code, out, err, "no 55 AA signature")
    assert open(image, "rb").read() == before and not nvm.exists()


def test_a_drive_folder_without_an_image_gets_a_formatted_one(tmp_path, files, capsys,
                                                              monkeypatch):
    drive = tmp_path / "new_drive"
    code, out, err = _run(["--drive", str(drive), "--quiet"] + HEADLESS[:1]
                          + ["--script", files["good_script"]], capsys, monkeypatch)
    assert code == 0, err
    assert fatformat.image_problem(str(drive / circuitpy.IMAGE)) == ""
    assert circuitpy.open_drive(str(drive)).exists("code.py")
