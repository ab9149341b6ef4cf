# SPDX-License-Identifier: MIT
"""Board text and move notation: round trips, Freecell Solver's own output, clear errors."""

import pytest

from freecell_mc.rules import cards, deals, notation
from freecell_mc.rules.engine import Game, SLOT_CELL, SLOT_FOUND
from positions import game

MS1 = """JD KD 2S 4C 3S 6D 6S
2D KC KS 5C TD 8S 9C
9H 9S 9D TS 4S 8D 2H
JC 5S QD QH TH QS 6H
5D AD JS 4H 8H 6C
7H QC AS AC 2C 3D
7C KH AH 4D JH 8C
5H 3H 3C 7S 7D TC
"""

# Freecell Solver's -p -t output after the moves 2a 3b (fixed-width cells, ': ' prefixes,
# trailing blanks).
FCS_STATE = """Foundations: H-0 C-0 D-0 S-0 
Freecells:  9C  2H        
: JD KD 2S 4C 3S 6D 6S
: 2D KC KS 5C TD 8S
: 9H 9S 9D TS 4S 8D
: JC 5S QD QH TH QS 6H
: 5D AD JS 4H 8H 6C
: 7H QC AS AC 2C 3D
: 7C KH AH 4D JH 8C
: 5H 3H 3C 7S 7D TC
"""  # noqa: W291  (Freecell Solver writes these trailing blanks)


def ms1():
    """Return a Game holding Microsoft deal 1."""
    g = Game()
    g.deal(deals.ms_deck(1))
    return g


def test_fresh_deal_prints_columns_only_and_reads_back():
    g = ms1()
    assert notation.board_text(g) == MS1
    assert notation.parse_board(MS1) == g.pos


def test_freecell_solver_state_reads_as_the_same_position():
    g = ms1()
    for tok in ("2a", "3b"):
        assert g.move(*notation.resolve_move(g, tok))
    assert notation.parse_board(FCS_STATE) == g.pos
    text = notation.board_text(g)
    assert text.splitlines()[:2] == ["Foundations: H-0 C-0 D-0 S-0", "Freecells: 9C 2H - -"]
    assert notation.parse_board(text) == g.pos


def test_cells_and_foundations_round_trip_with_empty_columns():
    text = """Foundations: S-T H-2 C-A
Freecells: - QD
:
: KH QC JD TC 9D 8C 7D 6C 5D 4C 3D 2C
KD
: KC QH JC TH 9C 8H 7C 6H 5C 4H 3C
:
AD 2D 4D 6D
8D TD KS QS JS
JH 9H 7H 5H 3H
"""
    pos = notation.parse_board(text, cells=2)
    g = Game(2)
    g.load(pos, 0)
    assert g.top(SLOT_FOUND + 3) == cards.parse_card("TS")
    assert g.top(SLOT_FOUND + 1) == 0 and g.top(SLOT_CELL + 1) == cards.parse_card("QD")
    assert g.column_len(0) == 0 and g.column_len(4) == 0 and g.column_len(1) == 12
    out = notation.board_text(g)
    assert out.splitlines()[:4] == [
        "Foundations: H-2 C-A D-0 S-T", "Freecells: - QD", ":",
        "KH QC JD TC 9D 8C 7D 6C 5D 4C 3D 2C"]
    assert notation.parse_board(out, cells=2) == pos
    # Numbers are read as ranks too, as some tools write them.
    assert notation.parse_board(text.replace("S-T", "S-10").replace("C-A", "C-1"), 2) == pos


def full_position():
    """Return a game with cards on foundations, in cells and an empty column."""
    g = ms1()
    for tok in "2a 3b 4c 8d 82 12 18 b1 7b 74 d4 8d 83 87 c3 8c 82 17 18:1 12 62 62 6h 6h".split():
        assert g.move(*notation.resolve_move(g, tok)), tok
    return g


# fc-solve -sam -p -t printed this after the same 24 moves of its solution of deal 1.
FCS_AFTER_24 = """Foundations: H-0 C-A D-0 S-A 
Freecells:  9C  8C  3H  6D
: JD KD 2S
: 2D KC KS 5C TD 8S 7D 6S 5H 4C 3D 2C
: 9H 9S 9D TS 4S 8D 7S 6H
: JC 5S QD QH TH QS JH TC
: 5D AD JS 4H 8H 6C
: 7H QC
: 7C KH AH 4D 3C 2H
: 3S
"""  # noqa: W291  (Freecell Solver writes these trailing blanks)


def test_mid_game_round_trip():
    g = full_position()
    assert notation.parse_board(FCS_AFTER_24) == g.pos
    text = notation.board_text(g)
    assert text.splitlines()[:3] == ["Foundations: H-0 C-A D-0 S-A", "Freecells: 9C 8C 3H 6D",
                                     "JD KD 2S"]
    pos = notation.parse_board(text)
    assert pos == g.pos
    # Written again it is the same text, with ': ' prefixes or not.
    prefixed = "\n".join((": " + line if line and line[0] in cards.RANKS else line)
                         for line in text.splitlines())
    assert notation.parse_board(prefixed) == g.pos


def test_fewer_cells_print_only_those():
    g = Game(2)
    g.deal(deals.ms_deck(1))
    g.move(0, SLOT_CELL + 1)
    text = notation.board_text(g)
    assert "Freecells: - 6S" in text
    assert notation.parse_board(text, cells=2) == g.pos
    with pytest.raises(ValueError, match="line 2: 3 free cells given, but the game has 2"):
        notation.parse_board(text.replace("Freecells: - 6S", "Freecells: - - 6S"), cells=2)
    with pytest.raises(ValueError, match="line 2: 2 free cells given, but the game has 1"):
        notation.parse_board(text, cells=1)
    # Placeholders for cells the game does not have are harmless.
    assert notation.parse_board(text.replace("Freecells: - 6S", "Freecells: - 6S - -"), 2) == g.pos


@pytest.mark.parametrize(
    "edit,message",
    [
        (lambda t: t.replace("6S\n", "6X\n", 1), r"line 1: '6X' is not a card"),
        (lambda t: t.replace("TC", "TD"), r"line 8: TD appears twice \(first on line 2\)"),
        (lambda t: t.replace(" TC", ""), r"cards missing from the board: TC"),
        (lambda t: t + ":\n", r"line 9: a ninth column line"),
        (lambda t: t.replace("6S\n", "6S " + "6S " * 13 + "\n", 1),
         r"line 1: 20 cards in one column \(FreeCell builds at most 19\)"),
        (lambda t: t.split("\n", 1)[1], r"expected 8 column lines .* found 7"),
        (lambda t: "Foundations: H-Z\n" + t, r"line 1: 'Z' is not a foundation rank"),
        (lambda t: "Foundations: X-0\n" + t, r"line 1: 'X-0' is not a foundation"),
        (lambda t: "Foundations: H0\n" + t, r"line 1: 'H0' is not a foundation"),
        (lambda t: "Foundations: C-A\n" + t, r"AC appears twice"),
        (lambda t: "Freecells: 2C\n" + t, r"2C appears twice"),
        (lambda t: "Freecells: QQ\n" + t, r"line 1: 'QQ' is not a card"),
        (lambda t: "Foundations: H-0\nFreecells: -\nFoundations: S-0\n" + t,
         r"line 3: a second Foundations line \(the first is line 1\)"),
        (lambda t: "Freecells: -\n\nFreecells: - -\n" + t,
         r"line 3: a second Freecells line \(the first is line 1\)"),
        (lambda t: "Freecells: - - - - -\n" + t,
         r"line 1: 5 free cells given, but FreeCell has at most 4"),
        # Freecell Solver's fixed-width cells: six 4-character fields are six cells.
        (lambda t: "Freecells:" + "    " + "  KD" + " " * 8 + "  3S  4H\n" + t,
         r"line 1: 6 free cells given"),
        (lambda t: t + "\n".join(["JD"] * 100000), r"line 9: a ninth column line"),
    ],
)
def test_malformed_boards_name_the_line_and_problem(edit, message):
    with pytest.raises(ValueError, match=message):
        notation.parse_board(edit(MS1))


def test_a_byte_order_mark_before_the_board_is_not_part_of_it():
    assert notation.parse_board("\ufeff" + MS1) == notation.parse_board(MS1)
    assert notation.parse_board("\ufeffFreecells: - - - -\n" + MS1) == notation.parse_board(MS1)


def test_parse_move_forms():
    assert notation.parse_move("3a") == (2, SLOT_CELL, 0)
    assert notation.parse_move("a3") == (SLOT_CELL, 2, 0)
    assert notation.parse_move("3h") == (2, SLOT_FOUND, 0)
    assert notation.parse_move("dh") == (SLOT_CELL + 3, SLOT_FOUND, 0)
    assert notation.parse_move("38") == (2, 7, 0)
    assert notation.parse_move("38:3") == (2, 7, 3)
    assert notation.parse_move(" 1A ") == (0, SLOT_CELL, 0)


@pytest.mark.parametrize(
    "tok,message",
    [
        ("3", "'3' is not a move"),
        ("389", "'389' is not a move"),
        ("39", "'9' is not a place"),
        ("e1", "'e' is not a place"),
        ("h3", "not taken from a foundation"),
        ("33", "the same place twice"),
        ("38:x", "the count after ':' must be a number"),
        ("38:0", "the count after ':' must be a number"),
        ("3a:2", "only column-to-column moves carry more than one card"),
    ],
)
def test_malformed_moves_name_the_token(tok, message):
    with pytest.raises(ValueError, match=message):
        notation.parse_move(tok)


def test_move_text_round_trip():
    for src, dst, n in [(2, SLOT_CELL, 1), (SLOT_CELL + 2, 0, 1), (4, SLOT_FOUND + 3, 1),
                        (0, 7, 1), (0, 7, 4)]:
        text = notation.move_text(src, dst, n)
        s, d, k = notation.parse_move(text)
        assert s == src and (d == dst or (d == SLOT_FOUND and dst >= SLOT_FOUND))
        assert max(k, 1) == n
    assert notation.move_text(0, 7, 4) == "18:4"
    assert notation.move_text(4, SLOT_FOUND + 3) == "5h"


def run_game():
    """Return a game where column 1 ends in a 3-card run and column 2 is empty."""
    rest = [b for b in range(4, 56) if b not in (cards.parse_card(x) for x in
                                                 ("KS", "QH", "JC", "TD", "9S"))]
    cols = [[cards.parse_card("KS"), cards.parse_card("QH"), cards.parse_card("JC"),
             cards.parse_card("TD")], [], [cards.parse_card("9S")]]
    for i in range(5):
        cols.append(rest[i::5])
    return game(cols)


def test_resolve_counts():
    g = run_game()
    # To an empty column without a count: the longest run the capacity allows (4 cells
    # free, the target not counted: 5), here the whole ordered run KS QH JC TD.
    assert notation.resolve_move(g, "12") == (0, 1, 4)
    assert notation.resolve_move(g, "12:2") == (0, 1, 2)
    # Onto a card: the run that fits there.
    assert notation.resolve_move(g, "31") == (2, 0, 1)


@pytest.mark.parametrize(
    "tok,message",
    [
        ("2a", "column 2 is empty"),
        ("13", "TD does not go on 9S"),
        ("12:5", "column 1 ends in an ordered run of 4, too short for 5"),
        ("1h", "TD cannot go home: its foundation is at 0"),
        ("ah", "cell a is empty"),
    ],
)
def test_illegal_moves_say_why(tok, message):
    g = run_game()
    with pytest.raises(ValueError, match=message):
        notation.resolve_move(g, tok)


def test_capacity_and_cell_reasons():
    g = run_game()
    for i in range(4):
        g.pos[60 + i] = 0
    # Fill every cell: capacity into the empty column drops to 1.
    g2 = Game(1)
    pos = bytearray(g.pos)
    rest_col = 3
    b = pos[52 + rest_col]
    pos[52 + rest_col] = pos[b - 4]
    pos[b - 4] = 0
    pos[60] = b
    g2.load(pos, 0)
    with pytest.raises(ValueError, match="2 cards need room .* only 1 can move"):
        notation.resolve_move(g2, "12:2")
    with pytest.raises(ValueError, match="cell a is full"):
        notation.resolve_move(g2, "3a")
    with pytest.raises(ValueError, match="the game has only 1 free cells"):
        notation.resolve_move(g2, "3b")


def test_board_cells():
    assert notation.board_cells(MS1) is None
    assert notation.board_cells(FCS_STATE) is None
    assert notation.board_cells("Freecells: - QD\n" + MS1) == 2
    assert notation.board_cells("Freecells: 9C\n" + MS1) == 1
    assert notation.board_cells("Freecells: - - -\n" + MS1) == 3


def test_a_run_too_long_for_the_room_says_so():
    named = "2C QH JC TD KC 5S 6S 7S".split()
    rest = [cards.card_name(b) for b in range(4, 56) if cards.card_name(b) not in named]
    cols = ["2C QH JC TD", "KC"] + [" ".join(rest[i::6]) for i in range(6)]
    text = "Freecells: 5S 6S 7S -\n" + "\n".join(cols) + "\n"
    g = Game(4)
    g.load(notation.parse_board(text), 0)
    assert g.capacity(False) == 2 and g.run_len(0) == 3
    with pytest.raises(ValueError, match="'12': 3 cards need room to carry them, and only 2 can"):
        notation.resolve_move(g, "12")
    # The part that fits by room but not by rank is refused for the rank.
    with pytest.raises(ValueError, match="'12:2': JC does not go on KC"):
        notation.resolve_move(g, "12:2")
