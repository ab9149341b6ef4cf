# SPDX-License-Identifier: MIT
"""The screen: layout, card art, widgets, the table and the other screens."""
