# SPDX-License-Identifier: MIT
"""The desktop simulator and host tools for FreeCell MC (CPython only)."""
