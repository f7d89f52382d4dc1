"""The JSON-lines channel to the runner, and how a failure is said on it. Standard library only."""

from __future__ import annotations

import json
import statistics
import sys
import traceback
from typing import IO, Any

from .plan import BENCHMARKS

# Where boot.py says which descriptor is the messages' own channel.
EVENTS_FD = "GPUCONFIG_EVENTS_FD"


class Events:
    """The JSON-lines channel to the runner: stdout as it was when the worker started (kept by boot.py)."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.name = ""
        self.device = "cpu"

    def emit(self, event: dict[str, Any]) -> None:
        self.stream.write(json.dumps(event, default=str) + "\n")
        self.stream.flush()

    def result(
        self, dtype: str, samples: list[float], variant: str = "", load: dict[str, Any] | None = None, **detail: Any
    ) -> None:
        """A figure: its samples in the benchmark's unit, their median as its value, and what else the CPUs
        did while it was measured (`load`, from load.CpuLoad)."""
        self.emit(
            {
                "event": "result",
                "name": self.name,
                "dtype": dtype,
                "device": self.device,
                "value": round(statistics.median(samples), 6),
                "unit": BENCHMARKS[self.name][1],
                "variant": variant,
                "samples": [round(v, 6) for v in samples],
                "load": load or {},
                "detail": detail,
            }
        )

    def skipped(self, reason: str, dtype: str = "", variant: str = "") -> None:
        self.emit({**self._about("skipped", dtype, variant), "reason": reason})

    def error(self, exc: BaseException, dtype: str = "", variant: str = "") -> None:
        failure = "out_of_memory" if out_of_memory(exc) else "error"
        self.emit({**self._about("error", dtype, variant), "message": describe(exc), "failure": failure})
        traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)

    def _about(self, kind: str, dtype: str, variant: str) -> dict[str, Any]:
        unit = BENCHMARKS[self.name][1] if self.name in BENCHMARKS else ""
        about = {"event": kind, "name": self.name, "dtype": dtype, "device": self.device}
        return {**about, "unit": unit, "variant": variant}


def describe(exc: BaseException) -> str:
    """One line for a failure; allocation failures say "out of memory" first."""
    text = f"{type(exc).__name__}: {exc}".strip().splitlines()[0][:400]
    if out_of_memory(exc):
        return text if text.lower().startswith("out of memory") else f"out of memory: {text}"
    return text


def out_of_memory(exc: BaseException) -> bool:
    """Whether an allocation failed: MemoryError, torch's OutOfMemoryError (CUDA), or the words c10's CPU
    allocator raises its RuntimeError with ("DefaultCPUAllocator: can't allocate memory")."""
    if isinstance(exc, MemoryError) or type(exc).__name__ == "OutOfMemoryError":
        return True
    text = str(exc).lower()
    return "out of memory" in text or "can't allocate memory" in text
