"""How far memory estimates have been from real runs, per device: the band every answer shows.

benchmarks/estimate_accuracy_cpu.py measures it (catalog/estimate_accuracy.toml): each case's estimate against
the peak resident memory of a fresh process running the same steps, with whatever the estimate fits taken
from the other model families only, so the band is an error on models it was not fitted to. A device without
a table there has no measured band, and answers say so rather than show a number.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Any

from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate
from gpuconfig.core.paths import catalog_dir

BAND_FILE = "estimate_accuracy.toml"
# Why there is no band, in English (translate("Workload", ...) says it in the language in use: band_text).
NO_BAND = {
    "cuda": QT_TRANSLATE_NOOP("Workload", "no measured band for GPUs yet"),
    "cpu": QT_TRANSLATE_NOOP("Workload", "no measured band yet (benchmarks/estimate_accuracy_cpu.py measures it)"),
}


@dataclass(frozen=True)
class Band:
    """The held-out error of memory estimates on one device: (estimate - measured) / measured."""

    device: str
    median_abs_error: float
    worst_error: float  # signed: above zero the estimate was too high
    worst_under_error: float | None  # the largest under-estimate (0: none was under); None where not measured
    cases: int
    benchmark: str
    measured: str  # the date
    machine: str


@cache
def _bands() -> dict[str, Any]:
    path = catalog_dir() / BAND_FILE
    if not path.is_file():
        return {}
    with path.open("rb") as handle:
        return tomllib.load(handle)


def band(device: str) -> Band | None:
    """The measured band for `device` ("cpu" or "cuda"), or None where nothing has been measured."""
    data = _bands().get(device)
    if not isinstance(data, dict):
        return None
    return Band(
        device,
        float(data["median_abs_error"]),
        float(data["worst_error"]),
        float(data["worst_under_error"]) if "worst_under_error" in data else None,
        int(data["cases"]),
        str(data["benchmark"]),
        str(data.get("measured", "")),
        str(data.get("machine", "")),
    )


def band_text(device: str) -> str:
    """One line: "±X % (held-out median), worst Y %, from <benchmark> over N cases", or why there is none."""
    found = band(device)
    if found is None:
        return translate("Workload", NO_BAND.get(device, NO_BAND["cuda"]))
    return translate(
        "Workload", "±{median:.1f} % (held-out median), worst {worst:+.0f} %, from {benchmark} over {cases} cases"
    ).format(
        median=100 * found.median_abs_error,
        worst=100 * found.worst_error,
        benchmark=found.benchmark,
        cases=found.cases,
    )


def band_record(device: str, extrapolated: str = "") -> dict[str, Any]:
    """The band as the answer's JSON carries it: the figures (null without a measured band) and the line. An
    answer beyond the traced shapes (`extrapolated`: why, Fitted.extrapolation) has no band: the benchmark
    measured answers at traced shapes only."""
    found = None if extrapolated else band(device)
    figures = (
        None
        if found is None
        else {
            "median_abs_error": found.median_abs_error,
            "worst_error": found.worst_error,
            "worst_under_error": found.worst_under_error,
            "cases": found.cases,
            "benchmark": found.benchmark,
            "measured": found.measured,
            "machine": found.machine,
        }
    )
    text = extrapolated or band_text(device)
    return {"device": device, "band": figures, "text": text, "extrapolated": bool(extrapolated)}
