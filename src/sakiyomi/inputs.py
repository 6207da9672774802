"""The one parser for numbers a user types: counts, depths, heap sizes, seconds.

Every number that comes from a command line, a position text, a batch line or a prompt goes
through ``parse_int`` or ``parse_seconds``, so that all of them obey the same rules:

* ASCII only: ``str.isdigit`` and ``int()`` also take ``²``, ``٣`` or ``１`` (the first one then
  fails inside ``int()``), ``float()`` takes ``"inf"``, ``"nan"`` and ``"1_0"``; none of that is
  a number a user means here.
* a stated range per use: the caller gives the smallest and largest value it can honour, and
  text beyond it is refused *before* any conversion, so neither Python's 4,300-digit limit for
  ``int()`` nor an infinite float is ever reached.
* one clear message, in one line, naming what was expected ("heap too large: at most 10,000");
  long or odd input is shown shortened and escaped, never copied raw into the message.

The error class is the caller's choice (``error=``): games raise their ``PositionError`` or
``MoveError``, the CLI turns ``InputError`` into an argparse error.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

SHOWN_CHARS = 40  # longer input is cut in messages (a message stays one readable line)
_INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"[+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]{1,4})?", re.ASCII)
MAX_DECIMAL_CHARS = 64  # a number of seconds longer than this is not a typo worth reading
SPACES = " \t\n\r\f\v"  # the white space allowed around a number (ASCII, like the digits)


class InputError(ValueError):
    """A number the user typed that is malformed or outside the range of its use."""


ErrorFactory = Callable[[str], Exception]


def shown(text: str, limit: int = SHOWN_CHARS) -> str:
    """``text`` quoted and escaped for a one-line message, cut to ``limit`` characters."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text):,} characters)"


def parse_int(text: str, what: str, *, low: int = 0, high: int,
              error: ErrorFactory = InputError) -> int:
    """The integer written in ``text`` (ASCII digits, an optional sign, ASCII spaces around), which
    must lie in ``low..high``; otherwise ``error(message)`` is raised, the message naming
    ``what`` and the allowed range.
    """
    body = text.strip(SPACES)
    if not _INTEGER.fullmatch(body):
        raise error(f"{what} {shown(text)} is not a whole number (digits 0-9)")
    negative = body.startswith("-")
    digits = body.lstrip("+-").lstrip("0") or "0"
    # Compare lengths first: a string of thousands of digits is never converted.
    limit = high if not negative else -low
    if limit < 0 or len(digits) > len(str(limit)):
        value = None
    else:
        value = -int(digits) if negative else int(digits)
    if (value is None and negative) or (value is not None and value < low):
        raise error(f"{what} too small: at least {low:,}, not {shown(text)}")
    if value is None or value > high:
        raise error(f"{what} too large: at most {high:,}, not {shown(text)}")
    return value


def parse_seconds(text: str, what: str = "time", *, high: float,
                  error: ErrorFactory = InputError) -> float:
    """A finite number of seconds, more than 0 and at most ``high`` (plain decimal or
    exponent notation in ASCII; no ``inf``, ``nan`` or digit separators).
    """
    body = text.strip(SPACES)
    if len(body) > MAX_DECIMAL_CHARS or not _DECIMAL.fullmatch(body):
        raise error(f"{what} {shown(text)} is not a number of seconds (e.g. 2 or 0.5)")
    value = float(body)
    if not math.isfinite(value) or value > high:
        raise error(f"{what} too large: at most {high:,g} seconds, not {shown(text)}")
    if not value > 0:
        raise error(f"{what} must be more than 0 seconds, not {shown(text)}")
    return value
