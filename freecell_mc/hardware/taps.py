# SPDX-License-Identifier: MIT
"""Taps derived from raw touch readings (press, confirmation, release, debounce, jitter).

A resistive touchscreen's `touch_point` is a bare sample: None, or (x, y, z) with z the
pressure. It has no press or release events, drops out for a sample or two in the middle of
a firm press, and reads wild coordinates while a finger lands or lifts. Taps here:

- a press starts with a reading whose pressure is at least `min_z`;
- it is a tap as soon as it is certain: `min_readings` readings in a row, none of them more
  than `jitter` pixels from the mean of the readings before it (a finger sliding on or a
  noisy contact is not a tap: the press is spoiled); the tap is reported at once, at their
  mean, without waiting for the finger to lift (the player sees the game answer the touch);
- after that, or after a spoiled press, nothing more comes of the press until it ends:
  readings without enough pressure end it only after `release_ms` of them in a row
  (shorter drop-outs are bridged: that is the debounce), so a press that drops out or
  reads wild while it lifts never taps twice.

feed() allocates nothing: sums are small ints and the tap is one preallocated list.
"""

from freecell_mc.compat import const
from freecell_mc.dates import ticks_diff

_IDLE = const(0)
_DOWN = const(1)  # touching, every reading so far close together, not yet a tap
_DONE = const(2)  # touching, already a tap (or spoiled by jitter): wait for the release


class Taps:
    """Turn a stream of touch_point readings into taps."""

    def __init__(self, min_z=1, jitter=12, release_ms=40, min_readings=2):
        """Set the thresholds: pressure, pixel jitter, release debounce and readings per tap."""
        self.min_z = min_z
        self.jitter = jitter
        self.release_ms = release_ms
        self.min_readings = min_readings
        self.tap = [0, 0]  # reused for every tap: x, y
        self._state = _IDLE
        self._up_since = 0
        self._lifted = False
        self.reset()

    def reset(self):
        """Forget the readings of any press in progress (the screen changed under the finger):
        a finger still down taps again only once it has lifted and pressed anew."""
        self._state = _IDLE if self._state == _IDLE else _DONE
        self._n = 0
        self._sx = 0
        self._sy = 0

    def idle(self):
        """Return True when no press is in progress (not even a lifted one being debounced)."""
        return self._state == _IDLE

    def feed(self, reading, now_ms):
        """Take one touch_point reading at now_ms; return the tap list [x, y] or None."""
        if reading is not None and reading[2] >= self.min_z:
            self._lifted = False
            x = reading[0]
            y = reading[1]
            st = self._state
            if st == _IDLE:
                self._state = _DOWN
                self._n = 0
                self._sx = 0
                self._sy = 0
                st = _DOWN
            if st == _DOWN:
                n = self._n
                if n:
                    # Compare against the mean so far without dividing: scale by n.
                    dx = x * n - self._sx
                    dy = y * n - self._sy
                    lim = self.jitter * n
                    if dx > lim or dx < -lim or dy > lim or dy < -lim:
                        self._state = _DONE  # spoiled: nothing until the release
                        return None
                n += 1
                self._n = n
                self._sx += x
                self._sy += y
                if n >= self.min_readings:
                    self._state = _DONE
                    tap = self.tap
                    tap[0] = self._sx // n
                    tap[1] = self._sy // n
                    return tap
            return None
        # No pressure: maybe a drop-out, maybe the release.
        if self._state == _IDLE:
            return None
        if not self._lifted:
            self._lifted = True
            self._up_since = now_ms
            return None
        if ticks_diff(now_ms, self._up_since) >= self.release_ms:
            self._state = _IDLE
            self._lifted = False
        return None
