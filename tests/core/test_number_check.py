"""The one check every number from outside passes: finite, positive, under its ceiling, one line why not."""

from __future__ import annotations

import math
import re

import pytest

from gpuconfig.core.numbers import MAX_AMOUNT, NumberError, checked_amount, checked_number, finite_or_none


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (math.nan, "must be a finite number, got nan"),
        (math.inf, "must be a finite number, got inf"),
        (1e308, "must be at most 100,000,000, got 1e+308"),
        (0, "must be a positive number, got 0"),
        (True, "expected a number, got True"),
        ("12", "expected a number, got '12'"),
    ],
)
def test_an_amount_must_be_a_finite_positive_number_under_the_ceiling(value: object, message: str) -> None:
    with pytest.raises(NumberError, match=f"^{re.escape(message)}$"):
        checked_amount(value)


def test_huge_whole_numbers_are_refused_without_overflow() -> None:
    with pytest.raises(NumberError, match="must be at most 64"):
        checked_number(10**400, integer=True, most=64)
    assert checked_number(0, zero_ok=True) == 0.0
    assert checked_amount(MAX_AMOUNT) == MAX_AMOUNT


def test_figures_that_are_not_finite_become_unknown_in_a_record() -> None:
    record = {"a": math.nan, "b": [math.inf, 1.5, -math.inf], "c": ("x", 2), "d": {"e": 0.0}}
    assert finite_or_none(record) == {"a": None, "b": [None, 1.5, None], "c": ["x", 2], "d": {"e": 0.0}}
