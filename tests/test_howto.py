# SPDX-License-Identifier: MIT
"""How to play: the words on the drive (howto.txt), laid out a page at a time on every board.

Every page is measured like every other screen (tests/test_sizes.py: no text under 1.6 mm,
no target under 7 mm, nothing off the screen), the first page says how to move a card, Next
turns the pages and comes back to the first, Back leaves; the file goes everywhere the
game goes: the board image, the release zips, the simulated drive, whose game reads it
there.
"""

import pytest

from freecell_mc.ui.screens.howto import MISSING, walk
from screen_states import BOARDS, PanelBoard
from test_screens_sim import at, run
from test_sizes import problems, shown

from host_sim import circuitpy
from tools import bundle


def words(board):
    """Return the lines the screen shows now (its grid of glyph tiles), right-trimmed."""
    s = board.app.screen
    g = s.body
    return [bytes(0x20 + g[k, r] for k in range(s.cols)).decode().rstrip()
            for r in range(s.rows)]


def test_a_topic_starts_a_page_and_goes_on_over_the_next():
    lines = ["# One", "aa bb cc dd", "ee", "", "# Two", "ff"]
    assert walk(lines, 5, 2) == (3, "")
    grid = bytearray(10)
    assert walk(lines, 5, 2, 0, grid) == (3, "One")
    assert bytes(grid) == bytes(ord(c) - 32 for c in "aa bbcc dd")
    assert walk(lines, 5, 2, 1, grid) == (3, "One")
    assert bytes(grid) == bytes(ord(c) - 32 for c in "ee   " + "     ")  # a paragraph's line
    assert walk(lines, 5, 2, 2, grid) == (3, "Two")
    assert bytes(grid[:2]) == bytes(ord(c) - 32 for c in "ff")


def test_the_words_fit_every_board_and_name_every_topic():
    with open(bundle.ROOT / "howto.txt", encoding="ascii") as f:
        text = f.read()  # ASCII only: the board's font has nothing else
    lines = text.split("\n")
    topics = [ln[1:].strip() for ln in lines if ln.startswith("#")]
    assert topics[0] == "Moving a card" and len(topics) == 7
    longest = max(len(w) for ln in lines for w in ln.split())
    assert longest <= 25  # the Pynt's line: no word is cut


@pytest.mark.parametrize("board_name", sorted(BOARDS))
def test_every_page_on_every_board_reads_at_1_6_mm_and_is_turned_by_next(board_name):
    board = PanelBoard(board_name)
    try:
        app = board.app
        app.goto("menu")
        b = [b for b in app.screen.buttons if b.text == "How to play"]
        if not b:  # on a second page where the menu takes two (the Pynt's)
            more = [b for b in app.screen.buttons if b.text == "More"][0]
            board.tap(more.x + more.w // 2, more.y + more.h // 2)
            b = [b for b in app.screen.buttons if b.text == "How to play"]
        board.tap(b[0].x + b[0].w // 2, b[0].y + b[0].h // 2)
        s = app.screen
        assert s.name == "howto" and s.page == 0
        # The first page says how to move a card.
        first = " ".join(words(board))
        assert "Tap a card to pick it up" in first and "where it goes" in first
        assert s.title.text.startswith("Moving a card")
        seen = []
        nxt = [b for b in s.buttons if b.text == "Next"][0]
        for page in range(s.pages):
            assert s.page == page
            assert s.title.text.endswith("%d/%d" % (page + 1, s.pages))
            bad = problems(board_name, app)
            assert not bad, "page %d on the %s:\n  %s" % (page + 1, board_name, "\n  ".join(bad))
            text = [t for _, t, _, _, o in shown(s.group, None) if len(o) and o[0] is s.body]
            assert text, "the page's words are drawn"
            seen.append(" ".join(words(board)))
            board.tap(nxt.x + nxt.w // 2, nxt.y + nxt.h // 2)
        assert s.page == 0  # after the last, the first again
        # Every word of the file is on one page or another, in order.
        with open(bundle.ROOT / "howto.txt", encoding="ascii") as f:
            want = [w for ln in f if not ln.startswith("#") for w in ln.split()]
        assert " ".join(seen).split() == want
        back = [b for b in s.buttons if b.text == "Back"][0]
        board.tap(back.x + back.w // 2, back.y + back.h // 2)
        assert app.screen.name == "menu"
    finally:
        board.close()


def test_without_its_file_the_screen_says_how_to_mend_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no howto.txt here
    board = PanelBoard("pynt")
    try:
        board.app.goto("howto")
        s = board.app.screen
        said = " ".join(" ".join(words(board)).split())
        assert s.pages == 1 and "copy the game again" in " ".join(
            ln for ln in MISSING.split("\n")[1:])
        assert said.startswith("The words are missing from the drive")
        assert not problems("pynt", board.app)
    finally:
        board.close()


def test_the_words_go_wherever_the_game_goes(tmp_path):
    # The board image, the source zip and the simulated drive hold the same file.
    assert "howto.txt" in bundle.DATA
    assert circuitpy.HOWTO == (bundle.ROOT / "howto.txt").read_bytes()
    assert dict(circuitpy.INSTALLED)["howto.txt"] == len(circuitpy.HOWTO)
    from tools import release

    path = release.py_zip(tmp_path, "test")
    import zipfile

    with zipfile.ZipFile(path) as zf:
        assert zf.read("howto.txt") == circuitpy.HOWTO


def test_the_simulated_board_reads_the_words_from_its_drive(tmp_path):
    app = run(["key esc", "expect screen menu", at("menu", "How to play"),
               "expect screen howto"], tmp_path, date="2026-11-30", board="pyportal")
    s = app.screen
    assert s.name == "howto" and s.title.text.startswith("Moving a card")
    # The drive was made with the words; one whose file differs gets the game's again.
    vol = circuitpy.open_drive(str(tmp_path / "drive"))
    with vol.open("howto.txt", "wb") as f:
        f.write(b"# Old\nold words\n")
    vol.sync()
    vol = circuitpy.open_drive(str(tmp_path / "drive"))
    with vol.open("howto.txt", "rb") as f:
        assert f.read() == circuitpy.HOWTO
