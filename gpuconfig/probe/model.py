"""What a probe run produces: frozen records shared by the runner, the verdicts, the history and the tab.

"Unavailable" is a value: a field that could not be read is `{"unavailable": "why"}` in the JSON forms
(inventory dicts) and an `Unavailable` where a typed value is expected. Where a worker could not give it,
`{"unavailable": "why", "failure": ...}` also says why as a Failure, for the verdicts to switch on.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from gpuconfig.core.failures import Failure

SUITES = ("quick", "full")
RESULT_STATUSES = ("ok", "failed", "skipped")
VERDICT_STATUSES = ("pass", "warn", "fail", "info")


@dataclass(frozen=True)
class Unavailable:
    """A value that could not be read, and why (no driver, no GPU, not supported on this part...)."""

    reason: str

    def record(self) -> dict[str, str]:
        return {"unavailable": self.reason}


def unavailable(reason: str, failure: Failure | None = None) -> dict[str, str]:
    """The JSON form of a field that could not be read (and, from a worker, why as a Failure)."""
    return {"unavailable": reason} | ({"failure": str(failure)} if failure is not None else {})


def is_unavailable(value: Any) -> bool:
    return isinstance(value, Unavailable) or (
        isinstance(value, dict) and "unavailable" in value and set(value) <= {"unavailable", "failure"}
    )


def failure_of(value: Any) -> Failure | None:
    """The Failure a record names (a result's "failure", an unavailable's); None when it names none it knows."""
    try:
        return Failure(value)
    except (ValueError, TypeError):
        return None


@dataclass(frozen=True)
class BenchmarkResult:
    """One measured figure (or why there is none).

    name: the benchmark ("matmul", "memory_bandwidth", "h2d_bandwidth", "train_cnn", ...); dtype: "fp32",
    "bf16", ... or "" where it does not apply; device: "cpu", "cuda:0", ...; value in unit ("TFLOP/s",
    "GB/s", "samples/s", "MB/s"); variant tells apart results of one benchmark (pinned / pageable, AMP on,
    checkpointing on, num_workers=4); started/seconds: when it ran, in seconds from the run's start;
    failure: why a failed or skipped figure has no value, as a value (reason says it in words).
    """

    name: str
    dtype: str
    device: str
    value: float | None
    unit: str
    status: str = "ok"
    reason: str = ""
    variant: str = ""
    detail: dict[str, Any] = field(default_factory=dict)
    started: float = 0.0
    seconds: float = 0.0
    failure: Failure | None = None

    @property
    def label(self) -> str:
        parts = [self.name, self.dtype, self.variant]
        return " ".join(p for p in parts if p) + f" ({self.device})"

    def record(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> BenchmarkResult:
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known} | {"failure": failure_of(data.get("failure"))})


@dataclass(frozen=True)
class Verdict:
    """One check of the machine against what it should be.

    status: pass, warn or fail against a written threshold, or info where there is nothing to compare
    with (the threshold then says why). source: where the threshold or the expected figure comes from.
    """

    check: str
    subject: str
    status: str
    message: str
    measured: float | None = None
    expected: float | None = None
    unit: str = ""
    threshold: str = ""
    source: str = ""
    advice: str = ""

    @property
    def ratio(self) -> float | None:
        if self.measured is None or not self.expected:
            return None
        return self.measured / self.expected

    def record(self) -> dict[str, Any]:
        return {**asdict(self), "ratio": None if self.ratio is None else round(self.ratio, 4)}

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> Verdict:
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})
