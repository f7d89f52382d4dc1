"""The one check for a number that comes from outside: a file, the command line, a form or the database.

Not a number, not finite (NaN, infinity), not positive or beyond its ceiling: refused with one line that
says why. Callers put the file, line and field in front of it. And the way out: JSON text in which a figure
that is not finite is null.
"""

from __future__ import annotations

import json
import math
from typing import Any

# A float64 holds every whole number only up to 2**53; a figure past it is not what the file said.
MAX_QUANTITY = 2**53
# The most one price may be, in either currency (also the price editor's ceiling in the Catalog tab).
MAX_AMOUNT = 100_000_000


class NumberError(ValueError):
    """A number that cannot be used; str() is one line without the field's name."""


def checked_number(value: object, *, integer: bool = False, zero_ok: bool = False, most: float = MAX_QUANTITY) -> float:
    """`value` as an int (integer=True) or a float, if it is a finite number in (0, most], or [0, most] with
    zero_ok; else NumberError."""
    if isinstance(value, bool) or not isinstance(value, int | float) or (integer and isinstance(value, float)):
        raise NumberError(f"expected {'a whole number' if integer else 'a number'}, got {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise NumberError(f"must be a finite number, got {value!r}")
    if value < 0 or (value == 0 and not zero_ok):
        raise NumberError(f"must be {'zero or ' if zero_ok else ''}a positive number, got {value!r}")
    if value > most:
        raise NumberError(f"must be at most {most:,}, got {value!r}")
    return int(value) if integer else float(value)


def checked_amount(value: object, *, zero_ok: bool = False) -> float:
    """An amount of money: a finite positive number no larger than MAX_AMOUNT."""
    return checked_number(value, zero_ok=zero_ok, most=MAX_AMOUNT)


def parsed_amount(text: str) -> float:
    """An amount of money written as text (a price list cell, a command-line value)."""
    try:
        value = float(text)
    except ValueError:
        raise NumberError(f"expected a number, got {text!r}") from None
    return checked_amount(value)


def finite_or_none(data: Any) -> Any:
    """`data` (a JSON-like record) with every float that is not finite made None: JSON has no NaN or Infinity,
    and such a figure is unknown."""
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {key: finite_or_none(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [finite_or_none(value) for value in data]
    return data


def json_text(data: Any, indent: int | None = 2) -> str:
    """`data` as strict JSON text ending in a newline, as every JSON file and output gpuconfig writes: a
    figure that is not finite is written null (see finite_or_none), never NaN or Infinity."""
    return json.dumps(finite_or_none(data), ensure_ascii=False, indent=indent, allow_nan=False) + "\n"
