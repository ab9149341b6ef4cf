# SPDX-License-Identifier: MIT
"""The part of pytest that the engine's test modules use, small enough for MicroPython.

mp_pytests.py installs this as ``pytest`` so tests/test_engine.py and friends import and
run unchanged: ``pytest.raises`` (with ``match``), ``pytest.mark.parametrize`` and
``pytest.param``.
"""


class _Raises:
    """Context manager: the block must raise exc (and its message contain match)."""

    def __init__(self, exc, match=None):
        """Expect exc, optionally with a message matching the regular expression match."""
        self.exc = exc
        self.match = match
        self.value = None

    def __enter__(self):
        """Enter the block."""
        return self

    def __exit__(self, typ, value, tb):
        """Swallow the expected exception; fail on none or another one."""
        if typ is None:
            raise AssertionError("DID NOT RAISE %s" % self.exc.__name__)
        if not issubclass(typ, self.exc):
            return False
        self.value = value
        if self.match is not None:
            import re

            if re.search(self.match, str(value)) is None:
                raise AssertionError("%r does not match %r" % (str(value), self.match))
        return True


def raises(exc, match=None):
    """Return a context manager that expects exc."""
    return _Raises(exc, match)


def fail(msg=""):
    """Fail the running test."""
    raise AssertionError(msg)


# Parameter sets per test function: MicroPython functions take no attributes.
PARAMS = {}


def param(*values, marks=None, id=None):
    """pytest.param: the values of one case (its marks mean nothing here)."""
    return values[0] if len(values) == 1 else values


class _Mark:
    """pytest.mark: only parametrize is understood; other marks leave the test alone."""

    def parametrize(self, names, values, ids=None):
        """Attach a parameter list; mp_pytests.py expands it."""
        if isinstance(names, str):
            names = [n.strip() for n in names.split(",")]

        def deco(fn):
            sets = PARAMS.get(fn) or [{}]
            out = []
            for base in sets:
                for v in values:
                    row = dict(base)
                    if len(names) == 1:
                        row[names[0]] = v
                    else:
                        for i in range(len(names)):
                            row[names[i]] = v[i]
                    out.append(row)
            PARAMS[fn] = out
            return fn

        return deco

    def __getattr__(self, name):
        """Any other mark is a no-op decorator factory."""

        def factory(*a, **kw):
            def deco(fn):
                return fn

            return deco

        return factory


mark = _Mark()
