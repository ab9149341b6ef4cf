# SPDX-License-Identifier: MIT
"""Fake `alarm`: sleep_memory, the SAMD51's backup RAM, which a reset keeps (not power)."""

from host_sim import fakes


def __getattr__(name):
    """Serve sleep_memory from the running simulation."""
    if name == "sleep_memory":
        return fakes.current().sleep_memory
    raise AttributeError("module 'alarm' has no attribute %r" % name)
