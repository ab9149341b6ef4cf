# SPDX-License-Identifier: MIT
"""Deals under MicroPython: seeded, daily and Microsoft decks and deal codes, reported back.

The driver (tests/test_micropython.py) computes the same on CPython and compares; the known
answers from the spec are checked here directly as well.
"""

from mpcheck import load_input, emit, check, all_names
from freecell_mc.rules import deals

NAMES = all_names()


def column(deck, c):
    """Return the names of column c (0-based), first dealt first."""
    out = []
    for k in range(c, 52, 8):
        out.append(NAMES[deck[k]])
    return " ".join(out)


def main():
    """Deal everything the input asks for and report it."""
    data = load_input()
    # Known answers (SPEC section 3), independent of the CPython comparison.
    check(column(deals.seeded_deck(1), 0) == "QS 7S TC JS 4D 2H 9S", "seed 1 column 1")
    check(column(deals.seeded_deck(1), 7) == "2D 4H 4C 9D 3C 7H", "seed 1 column 8")
    d = deals.seeded_deck(deals.daily_seed(2026, 11, 30))
    check(column(d, 0) == "4S 5H 6H AC 3S 3C KD", "daily 2026-11-30 column 1")
    check(column(d, 1) == "AD 2H 7D QS 5S 9S 3D", "daily 2026-11-30 column 2")
    d = deals.seeded_deck(deals.daily_seed(2026, 12, 1))
    check(column(d, 0) == "6D 9D AS 9C 4H 7C 7S", "daily 2026-12-01 column 1")
    check(column(deals.ms_deck(1), 0) == "JD KD 2S 4C 3S 6D 6S", "MS deal 1 column 1")

    emit("seeded", [[s, deals.seeded_deck(s)] for s in data["seeds"]])
    daily = []
    for y, m, dd in data["dates"]:
        seed = deals.daily_seed(y, m, dd)
        daily.append([seed, deals.seeded_deck(seed)])
    emit("daily", daily)
    emit("ms", [[n, deals.ms_deck(n)] for n in data["ms"]])
    codes = []
    for kind, number, cells in data["codes"]:
        code = deals.deal_code(kind, number, cells)
        codes.append([code, list(deals.parse_code(code))])
    emit("codes", codes)
    rejected = []
    for text in data["typos"]:
        try:
            deals.parse_code(text)
            rejected.append([text, None])
        except ValueError as e:
            rejected.append([text, str(e)])
    emit("typos", rejected)
    # The driver passes CPython's answers too: the comparison happens on this interpreter
    # as well, so a mismatch names the first deal that differs.
    want = data.get("expected")
    if want:
        for kind in ("seeded", "daily", "ms"):
            got = {"seeded": [[s, deals.seeded_deck(s)] for s in data["seeds"]],
                   "daily": [[deals.daily_seed(y, m, dd), deals.seeded_deck(
                       deals.daily_seed(y, m, dd))] for y, m, dd in data["dates"]],
                   "ms": [[n, deals.ms_deck(n)] for n in data["ms"]]}[kind]
            for i in range(len(got)):
                check(got[i] == want[kind][i], "%s deal %d differs from CPython's"
                      % (kind, got[i][0]))
        emit("compared", len(want["seeded"]) + len(want["daily"]) + len(want["ms"]))


main()
