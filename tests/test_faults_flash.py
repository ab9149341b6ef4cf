# SPDX-License-Identifier: MIT
"""The flash model the fault tests rely on: erase-on-write, counts, and where a cut leaves it."""

import pytest

from host_sim import flash, hardware

pytestmark = pytest.mark.usefixtures("no_cut_left_armed")


def test_flash_block_acts_like_nvm():
    b = flash.FlashBlock(None, 8192)
    assert len(b) == 8192 and b[0] == 0xFF and b[0:3] == b"\xff\xff\xff"
    b[10:13] = b"abc"
    b[100] = 7
    assert b[10:13] == b"abc" and b[100] == 7
    assert b.erase_count == 2  # every write erases the whole block, however small
    with pytest.raises(ValueError):
        b[0:2] = b"abc"  # nvm cannot change size


def test_a_write_is_one_erase_then_one_step_per_page():
    b = flash.FlashBlock(None, 8192)
    before = flash.step_count()
    b[0:1] = b"x"
    assert flash.step_count() - before == 1 + 8192 // flash.PAGE


def test_cut_mid_erase_leaves_half_erased_old_data():
    b = flash.FlashBlock(None, 2048)
    b[0:2048] = b"A" * 2048
    flash.arm_cut(1)
    with pytest.raises(flash.PowerCut):
        b[0:4] = b"BBBB"
    assert b.data[0:1024] == b"\xff" * 1024 and b.data[1024:] == b"A" * 1024


def test_cut_mid_program_leaves_half_a_page():
    b = flash.FlashBlock(None, 2048)
    b[0:2048] = b"A" * 2048
    flash.arm_cut(3)  # erase, page 0, then the cut in page 1
    with pytest.raises(flash.PowerCut):
        b[0:2048] = b"C" * 2048
    assert b.data[0:512] == b"C" * 512
    assert b.data[512:768] == b"C" * 256 and b.data[768:] == b"\xff" * 1280


def test_power_cut_is_not_an_exception_the_game_could_swallow():
    assert not issubclass(flash.PowerCut, Exception)
    b = flash.FlashBlock(None, 1024)
    flash.arm_cut(1)
    with pytest.raises(flash.PowerCut):
        try:
            b[0:1] = b"x"
        except Exception:  # noqa: BLE001  (what a careless caller would write)
            pass
    flash.disarm()


def test_state_persists_to_the_file_at_every_step(tmp_path):
    path = tmp_path / "nvm.bin"
    b = flash.FlashBlock(str(path), 1024)
    b[0:1024] = b"A" * 1024
    flash.arm_cut(2)  # half of page 0 programmed, the rest still erased
    with pytest.raises(flash.PowerCut):
        b[0:1024] = b"B" * 1024
    again = flash.FlashBlock(str(path), 1024)
    assert again[0:256] == b"B" * 256 and again[256:1024] == b"\xff" * 768


def test_file_block_missing_read_only_and_directory_cut(tmp_path):
    path = tmp_path / "fcsave" / "00" / "save.bin"
    f = flash.FileBlock(str(path))
    assert len(f) == 0
    with pytest.raises(OSError):
        f[0:4]
    f[0:4] = b"data"
    assert path.exists() and path.stat().st_size == 4096 and f.meta_erase_count == 1
    flash.arm_cut(11)  # erase, 8 pages, directory erase, then the cut programming it
    with pytest.raises(flash.PowerCut):
        f[0:4] = b"more"
    assert not path.exists() and len(f) == 0  # the entry was lost with its sector
    ro = flash.FileBlock(str(tmp_path / "x.bin"), writable=False)
    with pytest.raises(OSError) as e:
        ro[0:1] = b"x"
    assert e.value.args[0] == 30


def test_sim_blocks_mirror_the_device_layout(tmp_path):
    from freecell_mc.saves import savelog

    blocks = hardware.sim_blocks(str(tmp_path), str(tmp_path / "nvm.bin"), ring=3)
    assert len(blocks) == 4 and len(blocks[0]) == savelog.NVM_SIZE
    assert blocks[2].path == str(tmp_path / hardware.ring_path(1))
    assert hardware.total_erases(blocks) == (0, 0)
