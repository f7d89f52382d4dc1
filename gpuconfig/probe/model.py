"""What a probe run produces: frozen records shared by the runner, the verdicts, the history and the tab.

"Unavailable" is a value: a field that could not be read is an `Unavailable(reason, failure)` wherever the
program holds it, and `{"unavailable": "why"}` (with `"failure": ...` where a worker said why as a Failure)
only in JSON, written by `Record.record()` and read back by `Unavailable.read()`.

A `Record` is a frozen dataclass whose JSON form is its fields in order: `record()` writes it and
`from_record()` reads it back (a key an older report lacks becomes its field's default, or unavailable).
"""

from __future__ import annotations

import sys
import types
import typing
from collections.abc import Mapping
from dataclasses import MISSING, asdict, dataclass, field, fields
from typing import Any, Self, TypeVar, Union

from gpuconfig.core.failures import Failure

SUITES = ("quick", "full")
RESULT_STATUSES = ("ok", "failed", "skipped")
VERDICT_STATUSES = ("pass", "warn", "fail", "info")
# A field left out of the JSON form while it is None (a key only some records have).
OMIT_NONE = {"omit_none": True}
NOT_RECORDED = "not recorded in this report"


@dataclass(frozen=True)
class Unavailable:
    """A value that could not be read, and why (no driver, no GPU, not supported on this part...);
    `failure` says why as a value where a worker gave one, for the verdicts to switch on."""

    reason: str
    failure: Failure | None = None

    def record(self) -> dict[str, str]:
        return {"unavailable": self.reason} | ({"failure": str(self.failure)} if self.failure is not None else {})

    @classmethod
    def read(cls, value: object) -> Unavailable | None:
        """The Unavailable a JSON value stands for, or None when it is a value."""
        if isinstance(value, Unavailable):
            return value
        if isinstance(value, Mapping) and "unavailable" in value and set(value) <= {"unavailable", "failure"}:
            return cls(str(value["unavailable"]), failure_of(value.get("failure")))
        return None


T = TypeVar("T")
Maybe = Union[T, Unavailable]  # noqa: UP007 (a generic alias: Maybe[int] is int | Unavailable)


def failure_of(value: object) -> Failure | None:
    """The Failure a record names (a result's "failure", an unavailable's); None when it names none it knows."""
    if not isinstance(value, str):
        return None
    try:
        return Failure(value)
    except ValueError:
        return None


def to_json(value: object) -> Any:
    """A value as plain JSON data: records by their `record()`, unavailables as {"unavailable": why}."""
    if isinstance(value, Record | Unavailable):
        return value.record()
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    return value


class Record:
    """A frozen dataclass with a JSON form: its fields in order (see the module's docstring)."""

    def items(self) -> list[tuple[str, object]]:
        """(name, value) of each field its JSON form has, in order."""
        pairs = [(f.name, getattr(self, f.name), f.metadata.get("omit_none")) for f in fields(self)]  # type: ignore[arg-type]
        return [(name, value) for name, value, omit in pairs if not (omit and value is None)]

    def record(self) -> dict[str, Any]:
        return {name: to_json(value) for name, value in self.items()}

    @classmethod
    def from_record(cls, data: object) -> Self:
        """The record a JSON object holds; a missing key is its field's default, else unavailable or empty."""
        if not isinstance(data, Mapping):
            raise TypeError(f"{cls.__name__}: expected a JSON object, got {type(data).__name__}")
        hints = _hints(cls)
        values = {}
        for f in fields(cls):  # type: ignore[arg-type]
            if f.name in data:
                values[f.name] = _read(hints[f.name], data[f.name])
            elif f.default is MISSING and f.default_factory is MISSING:
                values[f.name] = _absent(hints[f.name])
        return cls(**values)


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls, vars(sys.modules[cls.__module__]))
    return _HINTS[cls]


def _options(hint: Any) -> tuple[Any, ...]:
    return typing.get_args(hint) if typing.get_origin(hint) in (Union, types.UnionType) else (hint,)


def _read(hint: Any, value: Any) -> Any:
    """A JSON value as the type `hint` names (unions try unavailable, then records, then containers)."""
    options = _options(hint)
    if Unavailable in options and (missing := Unavailable.read(value)) is not None:
        return missing
    for option in options:
        origin = typing.get_origin(option) or option
        if isinstance(origin, type) and issubclass(origin, Record) and isinstance(value, Mapping):
            return origin.from_record(value)
        if origin is tuple and isinstance(value, list | tuple):
            item = typing.get_args(option)[0]
            return tuple(_read(item, v) for v in value)
        if origin is dict and isinstance(value, Mapping):
            item = typing.get_args(option)[1]
            return {str(k): _read(item, v) for k, v in value.items()}
        if origin is Failure:
            return failure_of(value)
    return value


def _absent(hint: Any) -> Any:
    """What a field an older report lacks holds."""
    options = _options(hint)
    if Unavailable in options:
        return Unavailable(NOT_RECORDED)
    first = typing.get_origin(options[0]) or options[0]
    if isinstance(first, type) and issubclass(first, Record):
        return first.from_record({})
    empty: dict[Any, Any] = {str: "", tuple: (), dict: {}, int: 0, float: 0.0, bool: False}
    return empty.get(first)


def read_samples(value: object) -> tuple[float, ...]:
    """A JSON list of samples as numbers (anything else in it left out)."""
    if not isinstance(value, list | tuple):
        return ()
    return tuple(float(v) for v in value if isinstance(v, int | float) and not isinstance(v, bool))


@dataclass(frozen=True)
class BenchmarkResult:
    """One measured figure (or why there is none).

    name: the benchmark ("matmul", "memory_bandwidth", "h2d_bandwidth", "train_cnn", ...); dtype: "fp32",
    "bf16", ... or "" where it does not apply; device: "cpu", "cuda:0", ...; value in unit ("TFLOP/s",
    "GB/s", "samples/s", "MB/s"); variant tells apart results of one benchmark (pinned / pageable, AMP on,
    checkpointing on, num_workers=4); started/seconds: when it ran, in seconds from the run's start;
    failure: why a failed or skipped figure has no value, as a value (reason says it in words).
    samples: each repeat's figure in `unit` (value is their median), kept so a figure can be judged again;
    load: what else the CPUs did meanwhile ("others_cpu" and "steal" as shares of all CPUs' time, "cpus",
    "source"; empty where not measured). An older report has neither: its figure is one number.
    earlier: this figure in this machine's earlier runs (same suite, Python and torch; newest first; only
    those stable in their own run), recorded when it ran, so that whether it repeats can be judged again.
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
    samples: tuple[float, ...] = ()
    load: dict[str, Any] = field(default_factory=dict)
    earlier: tuple[float, ...] = ()

    @property
    def key(self) -> tuple[str, str, str, str]:
        """What tells this figure from the others of a run, and finds it in another run of the machine."""
        return (self.name, self.dtype, self.device, self.variant)

    @property
    def label(self) -> str:
        parts = [self.name, self.dtype, self.variant]
        return " ".join(p for p in parts if p) + f" ({self.device})"

    def record(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> BenchmarkResult:
        known = set(cls.__dataclass_fields__)
        samples = read_samples(data.get("samples"))
        return cls(
            **{k: v for k, v in data.items() if k in known}
            | {"failure": failure_of(data.get("failure")), "samples": samples, "load": dict(data.get("load") or {})}
            | {"earlier": read_samples(data.get("earlier"))}
        )


@dataclass(frozen=True)
class Verdict:
    """One check of the machine against what it should be.

    status: pass, warn or fail against a written threshold, or info where there is nothing to compare
    with (the threshold then says why). source: where the threshold or the expected figure comes from.
    check_id: the check's English name where `check` reads in another language (None, and left out of the
    JSON form, where `check` is that name). A program finds a check by `key` (in JSON: "check_id", else
    "check"), the same in every language; `check` is only for people to read.
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
    check_id: str | None = None

    @property
    def key(self) -> str:
        """The check's English name ("PCIe link", "Matmul fp32"), whatever language the report is in."""
        return self.check_id or self.check

    @property
    def ratio(self) -> float | None:
        if self.measured is None or not self.expected:
            return None
        return self.measured / self.expected

    def record(self) -> dict[str, Any]:
        data = {k: v for k, v in asdict(self).items() if k != "check_id" or v is not None}
        return {**data, "ratio": None if self.ratio is None else round(self.ratio, 4)}

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> Verdict:
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})
