"""NaN, infinity and absurd numbers are refused at every door: catalog files, the rate, price overrides,
imported price lists, build files and plan limits; what the command line prints stays strict JSON."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gpuconfig.core.build.model import BuildError, build_from_json
from gpuconfig.core.catalog.files import CatalogError, load_catalog
from gpuconfig.core.money import ExchangeRateError, user_rate
from gpuconfig.core.planner.recommend import Constraints, PlanError
from gpuconfig.core.userdata.store import Store
from tests.builds.test_check import SOUND
from tests.core.test_catalog_files import _first_row_key, _replace_line


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gpuconfig", *args], capture_output=True, text=True, timeout=120, check=False
    )


def strict_json(text: str) -> Any:
    """JSON as the standard has it: NaN and Infinity are not JSON."""

    def refuse(constant: str) -> None:
        raise AssertionError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("memory_gb = nan", "memory_gb: must be a finite number, got nan"),
        ("memory_gb = inf", "memory_gb: must be a finite number, got inf"),
        ("memory_gb = 1e300", "memory_gb: must be at most 9,007,199,254,740,992, got 1e+300"),
    ],
)
def test_catalog_figures_that_are_not_finite_or_absurd_name_file_line_and_field(
    catalog_copy: Path, toml: str, message: str
) -> None:
    gpu = catalog_copy / "gpu.toml"
    number, _ = _first_row_key(gpu, "memory_gb")
    _replace_line(gpu, number, toml)
    with pytest.raises(CatalogError) as caught:
        load_catalog(catalog_copy)
    assert str(caught.value) == f"gpu.toml:{number}: {message}"


def test_a_catalog_price_of_1e308_is_refused(catalog_copy: Path) -> None:
    gpu = catalog_copy / "gpu.toml"
    number, line = _first_row_key(gpu, "price")
    _replace_line(gpu, number, re.sub(r"amount = [0-9.]+", "amount = 1e308", line))
    with pytest.raises(CatalogError) as caught:
        load_catalog(catalog_copy)
    assert str(caught.value) == f"gpu.toml:{number}: price: must be at most 100,000,000, got 1e+308"


@pytest.mark.parametrize("rate", [math.nan, math.inf, 1e300, 1e-300])
def test_an_exchange_rate_must_convert_to_finite_amounts_both_ways(rate: float) -> None:
    with pytest.raises(ExchangeRateError, match=r"^exchange rate must be"):
        user_rate(rate)


@pytest.mark.parametrize("amount", [math.nan, math.inf, 1e308])
def test_a_price_override_that_is_not_a_real_price_is_not_stored(store: Store, amount: float) -> None:
    part = next(p for p in store.parts("gpu") if p.price is not None)
    with pytest.raises(ValueError, match=r"^price: must be"):
        store.user.set_price_override(part.id, amount, "USD")
    assert store.part(part.id) == part


@pytest.mark.parametrize("count", [10**30, 65, 1.5, math.inf])
def test_a_build_file_count_must_be_a_whole_number_up_to_the_limit(count: object) -> None:
    with pytest.raises(BuildError, match=r"^lab\.json: parts\[0\]\.count: "):
        build_from_json({"parts": [{"id": "nvidia-geforce-rtx-4090", "count": count}]}, "lab.json")


@pytest.mark.parametrize(
    ("limits", "message"),
    [
        ({"budget": math.inf}, "budget: must be a finite number, got inf"),
        ({"samples": math.nan}, "samples: must be a finite number, got nan"),
        ({"electricity_per_kwh": math.inf}, "electricity: must be a finite number, got inf"),
    ],
)
def test_plan_limits_must_be_finite(limits: dict[str, float], message: str) -> None:
    with pytest.raises(PlanError, match=f"^{re.escape(message)}$"):
        Constraints(**limits)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", ["inf", "nan", "1e300"])
def test_rate_set_refuses_what_is_not_a_rate_and_json_stays_strict(value: str) -> None:
    result = run("catalog", "rate", "--set", value)
    assert result.returncode == 2
    assert result.stderr.startswith("gpuconfig: exchange rate must be") and result.stderr.count("\n") == 1
    shown = run("catalog", "rate", "--json")
    assert shown.returncode == 0, shown.stderr
    assert strict_json(shown.stdout)["user_set"] is False


def test_an_imported_price_of_1e308_is_refused_and_build_totals_stay_finite(tmp_path: Path) -> None:
    prices = tmp_path / "shop.csv"
    prices.write_text("id,amount,currency,date,source\nnvidia-geforce-rtx-4090,1e308,USD,2026-11-01,quote\n")
    result = run("catalog", "import-prices", str(prices))
    assert result.returncode == 2
    assert result.stderr == (
        "gpuconfig: price list not imported: shop.csv:2: amount: must be at most 100,000,000, got 1e+308\n"
    )
    build = tmp_path / "build.json"
    build.write_text(json.dumps({"name": "lab", "parts": [{"id": i, "count": n} for i, n in SOUND.items()]}))
    checked = run("build", "check", str(build), "--currency", "CNY", "--json")
    assert checked.returncode == 0, checked.stderr
    assert math.isfinite(strict_json(checked.stdout)["total"]["amount"])
