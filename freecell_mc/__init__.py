# SPDX-License-Identifier: MIT
"""FreeCell MC: classic FreeCell for CircuitPython touch handhelds."""
