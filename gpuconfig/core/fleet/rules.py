"""How far a figure may stray before a node is named: the defaults, or a rules file (TOML) that changes them,
for the whole fleet or for the metrics a pattern matches.

    threshold = 0.10           # a node this far from the fleet's median (a fraction) is an outlier ...
    spread_factor = 3          # ... or this many robust spreads of the metric, whichever is wider
    baseline_threshold = 0.05  # this far below the baseline is a failure (SuperBench's rule of 5 %)
    history_threshold = 0.10   # this far below the node's own previous run is a warning
    min_nodes = 3              # fewer nodes with a figure than this and it is not judged against the fleet

    [[metric]]
    match = "matmul/*"         # fnmatch patterns on metric keys ("matmul/bf16@cuda:0", "disk_read")
    threshold = 0.05
    [[metric]]
    match = "disk_read*"
    ignore = true

The default 5 % below a baseline is the variance rule of SuperBench's data diagnosis
(https://microsoft.github.io/superbenchmark/docs/user-tutorial/data-diagnosis, criteria x < -0.05). The
fleet's spread is the median absolute deviation times 1.4826 (1/qnorm(3/4)), which makes it estimate a
standard deviation for normal data and stay put when a few nodes are far off (R's stats::mad,
https://search.r-project.org/R/refmans/stats/html/mad.html).
"""

from __future__ import annotations

import fnmatch
import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class RulesError(ValueError):
    pass


@dataclass(frozen=True)
class MetricRule:
    match: str
    threshold: float | None = None
    ignore: bool = False


@dataclass(frozen=True)
class Rules:
    threshold: float = 0.10
    spread_factor: float = 3.0
    baseline_threshold: float = 0.05
    history_threshold: float = 0.10
    min_nodes: int = 3
    metrics: tuple[MetricRule, ...] = ()
    source: str = ""  # the rules file, "" for the defaults

    def threshold_for(self, key: str) -> float:
        for rule in self.metrics:
            if rule.threshold is not None and fnmatch.fnmatchcase(key, rule.match):
                return rule.threshold
        return self.threshold

    def ignored(self, key: str) -> bool:
        return any(rule.ignore and fnmatch.fnmatchcase(key, rule.match) for rule in self.metrics)

    def record(self) -> dict[str, Any]:
        return {
            "threshold": self.threshold,
            "spread_factor": self.spread_factor,
            "baseline_threshold": self.baseline_threshold,
            "history_threshold": self.history_threshold,
            "min_nodes": self.min_nodes,
            "metrics": [{"match": r.match, "threshold": r.threshold, "ignore": r.ignore} for r in self.metrics],
            "source": self.source,
        }


_FRACTIONS = ("threshold", "baseline_threshold", "history_threshold")


def load_rules(path: str | Path) -> Rules:
    """The rules a TOML file sets, the defaults for the rest; RulesError names the file and the key."""
    where = Path(path)
    try:
        data = tomllib.loads(where.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RulesError(f"{where}: cannot read it: {exc.strerror or exc}") from exc
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise RulesError(f"{where}: not a TOML file: {exc}") from exc
    settings: dict[str, Any] = {}
    for key, value in data.items():
        if key in _FRACTIONS:
            settings[key] = _number(where, key, value, 0.0, 1.0)
        elif key == "spread_factor":
            settings[key] = _number(where, key, value, 0.0, 100.0, zero_ok=True)
        elif key == "min_nodes":
            if not isinstance(value, int) or isinstance(value, bool) or value < 2:
                raise RulesError(f"{where}: min_nodes = {value!r}: a whole number of at least 2")
            settings[key] = value
        elif key == "metric":
            settings["metrics"] = tuple(_metric_rule(where, i, row) for i, row in enumerate(_rows(where, value)))
        else:
            known = ", ".join((*_FRACTIONS, "spread_factor", "min_nodes", "metric"))
            raise RulesError(f"{where}: unknown key {key!r} (known: {known})")
    return Rules(**settings, source=str(where))


def _rows(where: Path, value: object) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(row, dict) for row in value):
        raise RulesError(f"{where}: metric must be a list of tables ([[metric]])")
    return value


def _metric_rule(where: Path, index: int, row: dict[str, Any]) -> MetricRule:
    name = f"metric #{index + 1}"
    unknown = set(row) - {"match", "threshold", "ignore"}
    if unknown:
        raise RulesError(f"{where}: {name}: unknown key {sorted(unknown)[0]!r} (known: match, threshold, ignore)")
    match = row.get("match")
    if not isinstance(match, str) or not match:
        raise RulesError(f'{where}: {name}: match must name the metrics, a pattern such as "matmul/*"')
    threshold = row.get("threshold")
    if threshold is not None:
        threshold = _number(where, f"{name} threshold", threshold, 0.0, 1.0)
    ignore = row.get("ignore", False)
    if not isinstance(ignore, bool):
        raise RulesError(f"{where}: {name}: ignore must be true or false")
    return MetricRule(match, threshold, ignore)


def _number(where: Path, key: str, value: object, low: float, high: float, zero_ok: bool = False) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        raise RulesError(f"{where}: {key} = {value!r}: not a number")
    if not (low <= value <= high) or (value == low and not zero_ok):
        raise RulesError(f"{where}: {key} = {value!r}: must be above {low:g} and at most {high:g}")
    return float(value)
