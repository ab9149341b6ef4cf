# SPDX-License-Identifier: MIT
"""A card is one byte: rank << 2 | suit; the rules are small-integer arithmetic on it.

rank 1..13 (A..K), suit 0..3 in the order C D H S, so ``b - 4`` is the card's place 0..51
in the Microsoft deck order and 0 means "no card". Red is D or H: suit bits 01 and 10, so
``(b ^ (b >> 1)) & 1`` is 1 exactly for the red suits (engine.stacks() compares two of
them: the rule lives with the engine, which the board loads, and this module stays off it).
"""

RANKS = "A23456789TJQK"
SUITS = "CDHS"

# Indexed by rank (1..13); index 0 is a placeholder so names need no arithmetic.
_RANK_CHARS = "?A23456789TJQK"


def card_name(b):
    """Return the two-letter name of card byte b, e.g. "TD"; "--" for no card."""
    if b < 4 or b > 55:
        return "--"
    return _RANK_CHARS[b >> 2] + SUITS[b & 3]


def parse_card(text):
    """Return the card byte named by text ("td", "10D", "AH"); raise ValueError if none."""
    t = text.strip().upper()
    if len(t) == 3 and t[:2] == "10":
        t = "T" + t[2]
    if len(t) != 2:
        raise ValueError("Not a card: '%s' (expected rank A23456789TJQK and suit CDHS)" % text)
    r = RANKS.find(t[0])
    s = SUITS.find(t[1])
    if r < 0 or s < 0:
        raise ValueError("Not a card: '%s' (expected rank A23456789TJQK and suit CDHS)" % text)
    return (r + 1) << 2 | s
