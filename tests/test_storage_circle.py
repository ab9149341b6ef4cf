# SPDX-License-Identifier: MIT
"""Sequence numbers round their circle: no planted number pins an older save as the newest.

Numbers run 1 .. 2**30 - 1 and start again at 1. Ordered by their distance round the
circle, a CRC-valid record numbered exactly half the circle (2**29) from the newest was
neither newer nor older: it pinned the older record as the newest at every start and each
session's saves were lost. Here such records, and others beside them, are planted on the
drive; a start continues from the game's own newest save and every save after it is the
one the next start loads. The last test goes through code.py on the simulator.
"""

import binascii
import struct

from host_sim import hardware
from freecell_mc.rules import deals, notation
from freecell_mc.saves import policy, record, savelog
from freecell_mc.rules.engine import Game
from test_screens_sim import run

HALF = 1 << 29


def _sealed(rec, seq):
    """Return rec numbered seq with a correct CRC: what a foreign writer could leave."""
    out = bytearray(rec[0 : record.REC])
    struct.pack_into("<I", out, 8, seq % record.SEQ_LIMIT)
    struct.pack_into("<I", out, 252, binascii.crc32(bytes(out[0:252])) & 0xFFFFFFFF)
    assert record.check(out) == record.OK and record.refusal(out, Game()) is None
    return bytes(out)


def _save(s, now):
    """Count one more game started and save: the games played mark each save."""
    s.stats.record_start()
    assert s.commit(now, force=True)


def _newest(blocks):
    """Return (seq, games played) of the newest record a start loads from these blocks."""
    s = policy.Saves(blocks)
    assert s.load() is None
    return s._seq, s.stats.played


def _plant(blocks, rec, seqs):
    """Put rec, numbered each of seqs, into the ring's last places (never erased by a start)."""
    for k, seq in enumerate(seqs):
        b = blocks[len(blocks) - 1 - k]
        b.data[0 : record.REC] = _sealed(rec, seq)
        b.present = True


def _half_away_keeps_later_saves(first_seq):
    blocks = hardware.sim_blocks(ring=48)
    s = policy.Saves(blocks)
    s.load()
    s._seq = first_seq - 1
    for m in range(4):  # four saves: 1 .. 4 games played
        _save(s, 2000 * m)
    n, played = _newest(blocks)
    assert played == 4 and n == (first_seq + 3) % record.SEQ_LIMIT
    old = savelog.read_place(blocks[1])  # the first save: 1 game played
    # Exactly half the circle away, and beside it on both sides.
    _plant(blocks, old, [n + HALF + d for d in (0, -1, 1)])
    for session in range(1, 6):
        assert _newest(blocks)[1] == 3 + session  # the game's own newest, not the planted
        t = policy.Saves(blocks)
        t.load()
        _save(t, 1000)  # this session's save is the one the next start loads
    assert _newest(blocks)[1] == 9


def test_a_record_half_the_circle_away_pins_nothing_below_half():
    _half_away_keeps_later_saves(1000)


def test_a_record_half_the_circle_away_pins_nothing_above_half():
    # The newest at 2**29 + 1000: by distance round the circle the planted record at 1000
    # was taken as the newest (it lies "half" below) and every real record dropped.
    _half_away_keeps_later_saves(HALF + 1000)


def test_a_record_planted_just_short_of_half_never_becomes_newer():
    # Older by 2**29 - 1 round the circle: two saves later it was "newer" by distance.
    blocks = hardware.sim_blocks(ring=48)
    s = policy.Saves(blocks)
    s.load()
    for m in range(4):
        _save(s, 2000 * m)
    n, _ = _newest(blocks)
    _plant(blocks, savelog.read_place(blocks[1]), [n + HALF + 1, n + HALF + 2])
    for played in range(5, 10):
        t = policy.Saves(blocks)
        t.load()
        _save(t, 1000)
        assert _newest(blocks)[1] == played


def test_the_wrap_from_the_last_number_to_1_stays_in_order_beside_planted_records():
    blocks = hardware.sim_blocks(ring=48)
    s = policy.Saves(blocks)
    s.load()
    s._seq = record.SEQ_LIMIT - 3
    for m in range(4):
        _save(s, 2000 * m)  # 2**30 - 2, 2**30 - 1, 1, 2
    assert _newest(blocks) == (2, 4)
    _plant(blocks, savelog.read_place(blocks[1]), [2 + HALF, 1 + HALF, HALF])
    for played in range(5, 8):
        t = policy.Saves(blocks)
        t.load()
        _save(t, 1000)
        assert _newest(blocks) == (played - 2, played)


def _legal_moves(n):
    """Return n legal moves on seeded deal 7 (4 cells) in standard notation."""
    g = Game(4)
    g.deal(deals.deck_for(deals.KIND_SEED, 7))
    out = []
    while len(out) < n:
        for src in range(12):
            mask = g.targets(src, 1) if g.top(src) else 0
            if mask:
                dst = (mask & -mask).bit_length() - 1
                out.append(notation.move_text(src, dst))
                g.move(src, dst, 1)
                break
    return out


def test_through_the_game_a_start_continues_from_the_newest_and_keeps_every_later_save(
    tmp_path,
):
    moves = _legal_moves(6)
    # The first session: three moves, each saved on its own (1.5 s apart), then the menu.
    lines = ["wait 50"]
    for m in moves[0:3]:
        lines += ["move " + m, "wait 2000"]
    lines += ["key esc", "expect screen menu"]
    run(lines, tmp_path, date="2026-11-30", start_deal=(deals.KIND_SEED, 7, 4))
    blocks = hardware.drive_blocks(tmp_path / "drive", str(tmp_path / "nvm.bin"))
    found = []
    for i in range(1, len(blocks)):
        data = savelog.read_place(blocks[i])
        if record.check(data) == record.OK:
            found.append((record.seq_of(data), bytes(data[0 : record.REC])))
    found.sort()
    n = found[-1][0]
    assert len(found) >= 3  # the game's own records outnumber the planted ones
    # The oldest save, numbered exactly half the circle away, and either side of it.
    old = found[0][1]
    for k, seq in enumerate((n + HALF, n + HALF - 1, n + HALF + 1)):
        blocks[len(blocks) - 1 - k][0 : record.REC] = _sealed(old, seq)
    # Each later session starts from the last one's newest save and adds a move to it.
    for done in (3, 4, 5):
        app = run(["wait 50", "expect screen table", "expect moves %d" % done,
                   "move " + moves[done], "wait 2000", "key esc", "expect screen menu"],
                  tmp_path, date="2026-11-30")
        assert app.message is None
    app = run(["wait 50", "expect screen table", "expect moves 6"], tmp_path, date="2026-11-30")
    assert app.message is None and app.game.moves == 6


def test_boot_reads_the_usb_flag_from_the_boards_newest_record_beside_planted_ones():
    from freecell_mc.hardware import boot

    blocks = hardware.sim_blocks(ring=48)
    s = policy.Saves(blocks)
    s.load()
    s._seq = HALF + 10  # above half: distance round the circle took the planted one
    for m in range(3):
        _save(s, 2000 * m)
    s.settings.usb_writable = True
    assert s.commit(9000, force=True)
    n = _newest(blocks)[0]
    # Flag off, half the circle away and just short of it ("newer" by distance alone).
    _plant(blocks, savelog.read_place(blocks[1]), [n + HALF, n + HALF - 1])
    blocks[0].data[0:100] = b"\xff" * 100  # nvm cut: boot.py searches the ring
    assert boot.read_usb_flag(blocks) is True


def test_a_cluster_planted_far_away_never_outvotes_a_young_board_s_own_records(tmp_path):
    """Many CRC-valid records in one far stretch of the circle outnumbered a young drive's
    own records, and a start took the planted game. nvm's records, which only the game
    writes, now decide which stretch is the board's: a cluster of any size changes nothing,
    through code.py too."""
    moves = _legal_moves(3)
    lines = ["wait 50"]
    for m in moves[0:2]:
        lines += ["move " + m, "wait 2000"]
    lines += ["key esc", "expect screen menu"]
    run(lines, tmp_path, date="2026-11-30", start_deal=(deals.KIND_SEED, 7, 4))
    blocks = hardware.drive_blocks(tmp_path / "drive", str(tmp_path / "nvm.bin"))
    own = [savelog.read_place(blocks[i]) for i in range(1, len(blocks))]
    own = [d for d in own if record.check(d) == record.OK]
    assert 2 <= len(own) <= 4  # a young drive
    # A stranger's game: another deal, far round the circle, twelve times over.
    other = policy.Saves(hardware.sim_blocks(ring=40))
    other.load()
    g = Game(4)
    g.deal(deals.deck_for(deals.KIND_SEED, 99))

    class _Pos:
        pos = bytes(g.pos)
        moves = 0

    other.put_slot(record.SLOT_FREE, deals.KIND_SEED, 99, 4, _Pos, 5)
    assert other.commit(0, force=True)
    planted = bytes(other._rec)
    far = record.seq_of(own[0]) + (20 << 24)
    for k in range(12):
        blocks[len(blocks) - 1 - k][0 : record.REC] = _sealed(planted, far + k)
    s = policy.Saves(blocks)
    assert s.load() is None
    slot = s.slot(s.active)
    assert slot is not None and slot.number == 7 and slot.moves == 2  # the player's own
    app = run(["wait 50", "expect screen table", "expect moves 2", "move " + moves[2],
               "wait 2000"], tmp_path, date="2026-11-30")
    assert app.message is None and app.number == 7 and app.game.moves == 3
    # Without nvm's record (nvm cut), the count decides again: the far cluster of twelve
    # outvotes the board's few, as before; nvm's record is what anchors the board's run.
    bare = [None] + [blocks[i] for i in range(1, len(blocks))]
    t = policy.Saves(bare)
    t.load()
    assert t.slot(t.active).number == 99
