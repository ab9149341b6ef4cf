# SPDX-License-Identifier: MIT
"""Decode save records with fuzzed fields (correct CRCs) and report what each start keeps.

Input: {"older": hex of a good record, "records": [hex, ...]}. For each record: its
check() status, refusal() reason, and what a Saves over [no nvm, older, record] loads
(message, settings, statistics, both slots), then whether a save after it loads back the
same. Runs on CircuitPython's VM and CPython; tests/test_storage_fuzz.py compares the two.
"""

from binascii import unhexlify

from mpcheck import emit, load_input
from freecell_mc.saves import policy, record
from freecell_mc.rules.engine import Game


class Block:
    """nvm-like bytes in RAM."""

    def __init__(self, data):
        self.data = bytearray(b"\xff" * 512)
        self.data[0:len(data)] = data

    def __len__(self):
        return len(self.data)

    def __getitem__(self, s):
        return bytes(self.data[s])

    def __setitem__(self, s, value):
        self.data[s] = value


def summary(saves):
    """Return what a start keeps, as JSON-friendly lists."""
    se = saves.settings
    st = saves.stats
    out = [se.cells, se.takeback, se.four_colour, se.usb_writable,
           [list(se.calibration[0]), list(se.calibration[1])],
           [st.played, st.won, st.won_seconds, st.won_moves, st.best_seconds, st.best_moves,
            st.days_won, st.last_day, list(st.days_bits)],
           saves.active, None if saves.last_date is None else list(saves.last_date)]
    for i in (0, 1):
        s = saves.slot(i)
        out.append(None if s is None else [s.kind, s.number, s.cells, s.flags, s.moves,
                                           s.elapsed, list(s.pos)])
    return out


def main():
    data = load_input()
    older = unhexlify(data["older"])
    game = Game()
    out = []
    for text in data["records"]:
        rec = unhexlify(text)
        st = record.check(rec)
        why = record.refusal(rec, game) if st == record.OK else None
        blocks = [None, Block(older), Block(rec)]
        s = policy.Saves(blocks)
        msg = s.load()
        kept = summary(s)
        # A save after it loads back as it was, quietly.
        s.stats.record_start()
        s.commit(0, True)
        r = policy.Saves(blocks)
        msg2 = r.load()
        out.append([st, why, msg, kept, msg2, summary(r) == summary(s)])
    emit("records", out)


main()
