# SPDX-License-Identifier: MIT
"""Bytes one engine call allocates on MicroPython: gc.mem_alloc() just before and after it.

Each operation has its own function so that nothing but the call sits between the two
readings (a generic measure(f, *args) would allocate the bound method and the argument
tuple). Call them with the collector off. Shared by tests/mp/mp_alloc.py and
bench/mp_bench.py.
"""

from mpcheck import check, mem_alloc


def noop(g):
    """Do nothing: the call itself must cost 0 bytes."""
    return g


def a_noop(g):
    """Bytes allocated by calling a plain function."""
    a = mem_alloc()
    noop(g)
    return mem_alloc() - a


def a_bytearray():
    """Bytes allocated by bytearray(68): proves the harness sees allocations."""
    a = mem_alloc()
    bytearray(68)
    return mem_alloc() - a


def a_targets(g, src, n):
    """Bytes allocated by g.targets(src, n)."""
    a = mem_alloc()
    g.targets(src, n)
    return mem_alloc() - a


def a_fit(g, src, dst, n):
    """Bytes allocated by g.fit(src, dst, n)."""
    a = mem_alloc()
    g.fit(src, dst, n)
    return mem_alloc() - a


def a_move(g, src, dst, n):
    """Bytes allocated by g.move(src, dst, n); the move must have been legal."""
    a = mem_alloc()
    ok = g.move(src, dst, n)
    b = mem_alloc()
    check(ok, "a legal target refused the move")
    return b - a


def a_undo(g):
    """Bytes allocated by g.undo()."""
    a = mem_alloc()
    g.undo()
    return mem_alloc() - a


def a_capacity(g, to_empty):
    """Bytes allocated by g.capacity(to_empty)."""
    a = mem_alloc()
    g.capacity(to_empty)
    return mem_alloc() - a


def a_finish_available(g):
    """Bytes allocated by g.finish_available()."""
    a = mem_alloc()
    g.finish_available()
    return mem_alloc() - a


def a_dead_end(g):
    """Bytes allocated by g.dead_end()."""
    a = mem_alloc()
    g.dead_end()
    return mem_alloc() - a


def a_won(g):
    """Bytes allocated by g.won()."""
    a = mem_alloc()
    g.won()
    return mem_alloc() - a


def a_run_len(g, col):
    """Bytes allocated by g.run_len(col)."""
    a = mem_alloc()
    g.run_len(col)
    return mem_alloc() - a


def a_column_len(g, col):
    """Bytes allocated by g.column_len(col)."""
    a = mem_alloc()
    g.column_len(col)
    return mem_alloc() - a


def a_column_cards(g, col, buf):
    """Bytes allocated by g.column_cards(col, buf)."""
    a = mem_alloc()
    g.column_cards(col, buf)
    return mem_alloc() - a


def a_top(g, slot):
    """Bytes allocated by g.top(slot)."""
    a = mem_alloc()
    g.top(slot)
    return mem_alloc() - a


def a_finish_step(g):
    """Bytes allocated by g.finish_step()."""
    a = mem_alloc()
    g.finish_step()
    return mem_alloc() - a
