# SPDX-License-Identifier: MIT
"""Deals: the SPEC's known answers, Microsoft deals and deal codes."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from freecell_mc.rules import cards, deals


def columns(deck):
    """Return the eight column lines of a deck, first dealt card first."""
    return [" ".join(cards.card_name(deck[k] + 4) for k in range(c, 52, 8)) for c in range(8)]


def test_seed_1_known_answer():
    cols = columns(deals.seeded_deck(1))
    assert cols[0] == "QS 7S TC JS 4D 2H 9S"
    assert cols[7] == "2D 4H 4C 9D 3C 7H"


def test_daily_known_answers():
    assert deals.daily_seed(2026, 11, 30) == 20261130
    cols = columns(deals.seeded_deck(deals.daily_seed(2026, 11, 30)))
    assert cols[0] == "4S 5H 6H AC 3S 3C KD"
    assert cols[1] == "AD 2H 7D QS 5S 9S 3D"
    cols = columns(deals.seeded_deck(deals.daily_seed(2026, 12, 1)))
    assert cols[0] == "6D 9D AS 9C 4H 7C 7S"


def test_ms_deal_1_known_answer():
    assert columns(deals.ms_deck(1))[0] == "JD KD 2S 4C 3S 6D 6S"


@pytest.mark.parametrize("seed", [0, 1, 2, 0x9E3779B9, 0xFFFFFFFF, 20261130])
def test_seeded_deck_is_a_permutation(seed):
    assert sorted(deals.seeded_deck(seed)) == list(range(52))


def test_fmix32_zero_state_falls_back_to_one():
    # fmix32(0) == 0, so the seed 0x9E3779B9 would start xorshift at 0 without the fallback.
    assert deals.fmix32(0) == 0
    deck = deals.seeded_deck(0x9E3779B9)
    assert sorted(deck) == list(range(52)) and deck != list(range(52))


@pytest.mark.parametrize(
    "kind,number,cells",
    [(1, 0, 4), (1, 4294967295, 1), (2, 20261130, 4), (2, 20240229, 3), (3, 1, 2), (3, 1000000, 4)],
)
def test_code_round_trip(kind, number, cells):
    code = deals.deal_code(kind, number, cells)
    assert deals.parse_code(code) == (kind, number, cells)
    assert deals.parse_code(code.replace("-", " ")) == (kind, number, cells)
    assert deals.parse_code(code.replace("-", "")) == (kind, number, cells)


def test_code_shape():
    code = deals.deal_code(deals.KIND_DAILY, 20261130, 4)
    head, number, check = code.split("-")
    assert head == "24" and number == "20261130" and len(check) == 1
    assert deals.damm("2420261130" + check) == 0


def test_every_single_digit_typo_is_rejected():
    code = deals.deal_code(deals.KIND_MS, 11982, 4).replace("-", "")
    for i in range(len(code)):
        for d in "0123456789":
            if d == code[i]:
                continue
            bad = code[:i] + d + code[i + 1 :]
            with pytest.raises(ValueError, match="check digit"):
                deals.parse_code(bad)


def test_every_neighbour_swap_is_rejected():
    code = deals.deal_code(deals.KIND_SEED, 3141592653, 4).replace("-", "")
    for i in range(len(code) - 1):
        if code[i] == code[i + 1]:
            continue
        bad = code[:i] + code[i + 1] + code[i] + code[i + 2 :]
        with pytest.raises(ValueError, match="check digit"):
            deals.parse_code(bad)


def with_check(body):
    """Return body followed by its Damm check digit."""
    return body + str(deals.damm(body))


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "too short"),
        ("24-1", "too short"),
        ("24-x-1", "digits only"),
        ("1" * 14, "too long"),
        (with_check("35" + "7"), "Free cells must be 1 to 4"),
        (with_check("30" + "7"), "Free cells must be 1 to 4"),
        (with_check("34" + "1000001"), "Microsoft deals are numbered 1 to 1,000,000"),
        (with_check("34" + "0"), "Microsoft deals are numbered 1 to 1,000,000"),
        (with_check("24" + "20250229"), "No such date"),
        (with_check("24" + "20261301"), "No such date"),
        (with_check("44" + "12"), "No such kind"),
        (with_check("14" + "4294967296"), "end at"),
    ],
)
def test_bad_codes_have_clear_messages(text, message):
    with pytest.raises(ValueError, match=message):
        deals.parse_code(text)


def test_deal_code_refuses_impossible_deals():
    with pytest.raises(ValueError):
        deals.deal_code(deals.KIND_MS, 0, 4)
    with pytest.raises(ValueError):
        deals.deal_code(deals.KIND_DAILY, 20261131, 4)


def test_ms_deck_beyond_a_million_and_high_bit_rule():
    assert sorted(deals.ms_deck(1234567)) == list(range(52))
    assert sorted(deals.ms_deck(0x80000000)) == list(range(52))
    with pytest.raises(ValueError):
        deals.ms_deck(0)


def test_damm_published_example_and_pinned_codes():
    # The textbook example: 572 gets the check digit 4, and 5724 checks to 0.
    assert deals.damm("572") == 4 and deals.damm("5724") == 0
    # Codes are shown to players and shared: they must never change.
    assert deals.deal_code(deals.KIND_DAILY, 20261130, 4) == "24-20261130-4"
    assert deals.deal_code(deals.KIND_MS, 11982, 4) == "34-11982-" + str(deals.damm("3411982"))
    assert deals.parse_code(" 24 2026 1130 4 ") == (deals.KIND_DAILY, 20261130, 4)


CODES = st.one_of(
    st.tuples(st.just(deals.KIND_SEED), st.integers(0, 2**32 - 1), st.integers(1, 4)),
    st.tuples(st.just(deals.KIND_DAILY),
              st.dates().map(lambda d: d.year * 10000 + d.month * 100 + d.day),
              st.integers(1, 4)),
    st.tuples(st.just(deals.KIND_MS), st.integers(1, 1000000), st.integers(1, 4)),
)


@settings(max_examples=300, deadline=None)
@given(CODES, st.integers(0, 100), st.integers(1, 9))
def test_codes_round_trip_and_a_changed_digit_is_caught(deal, where, delta):
    kind, number, cells = deal
    code = deals.deal_code(kind, number, cells)
    assert deals.parse_code(code) == deal
    digits = code.replace("-", "")
    i = where % len(digits)
    bad = digits[:i] + str((int(digits[i]) + delta) % 10) + digits[i + 1 :]
    with pytest.raises(ValueError, match="check digit"):
        deals.parse_code(bad)


@given(st.dates())
def test_a_dailys_date_is_read_back_from_its_number(d):
    """daily_date undoes daily_seed for every date a deal code can name."""
    n = deals.daily_seed(d.year, d.month, d.day)
    assert deals.daily_date(n) == (d.year, d.month, d.day)
    assert deals.valid_date(*deals.daily_date(n))
