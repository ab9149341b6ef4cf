# SPDX-License-Identifier: MIT
"""Microsoft deals against two independent dealers: make-microsoft-freecell-board (its
output committed by tools/make_fixtures.py) and pysol-cards."""

import os

import pytest

from freecell_mc.rules import deals
from test_deals import columns

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def boards(name):
    """Return {deal: [8 column lines]} from a fixture file."""
    out = {}
    deal = None
    with open(os.path.join(ROOT, "tests", "fixtures", name), encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("deal "):
                deal = int(line.split()[1])
                out[deal] = []
            else:
                out[deal].append(line)
    return out


@pytest.mark.parametrize("name", ["ms_deals_fcs.txt", "ms_deals_pysol.txt"])
def test_fixture_deals_match(name):
    got = boards(name)
    assert {1, 617, 11982, 1234567} <= set(got)
    for deal, lines in got.items():
        assert columns(deals.ms_deck(deal)) == lines, deal


def test_deal_1_and_the_famous_11982():
    assert columns(deals.ms_deck(1))[0] == "JD KD 2S 4C 3S 6D 6S"
    assert boards("ms_deals_fcs.txt")[11982] == columns(deals.ms_deck(11982))


def test_pysol_cards_agrees_on_many_deals():
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game
    from pysol_cards.random_base import RandomBase

    for deal in list(range(1, 201)) + [617, 11982, 32000, 999999, 1000000, 1234567,
                                        2**31 - 1, 2**31, 2**32 - 1]:
        text = Game("freecell", deal, RandomBase.DEALS_MS).calc_layout_string(
            CardRenderer(True))
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        assert columns(deals.ms_deck(deal)) == lines, deal
