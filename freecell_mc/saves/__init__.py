# SPDX-License-Identifier: MIT
"""The saves: the record format, the ring of places on flash, when to write, statistics."""
