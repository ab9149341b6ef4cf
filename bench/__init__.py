# SPDX-License-Identifier: MIT
"""Benchmarks for FreeCell MC: `python -m bench` prints every figure."""
