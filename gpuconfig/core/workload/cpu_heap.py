"""The memory glibc's heap keeps on the CPU beyond what replaying the traced tensors through malloc shows.

The trace replays every tensor allocation and free through this machine's malloc (workers/tracer/heap.py) and
counts the growth of the heap beyond the tensors. A real run's heap still ends larger: between the tensors it
allocates about five small C++ objects for each one (autograd nodes, tensor headers, saved variables, kernel
caches), and some of them outlive the tensors around them, so the holes those tensors leave cannot merge and
be given back. The trace cannot see that stream, so its effect is a measured share of a traced quantity.

Which quantity: only memory the heap serves can be kept. mallopt(3), M_MMAP_THRESHOLD: requests at least the
threshold large are mmap(2)ed and given back when freed; smaller ones come from the heap, which keeps what is
freed. The threshold starts at 128 KiB and rises to the size of each larger block freed, up to
DEFAULT_MMAP_THRESHOLD_MAX (32 MiB on 64-bit). workers/tracer/heap_profile.py follows that rule over the traced
allocations and reports every heap-served byte the traced steps allocate (`heap_allocated_bytes`): the churn
among which the small objects land. The kept memory is a measured share of it, 0.07 on this machine's glibc.
benchmarks/estimate_accuracy_cpu.py fits the share on half the model families and reports its error on the
other half (and the other way round), then writes the share fitted on all of them to catalog/cpu_heap.toml.
It compares three predictors that way and keeps the one with the smaller held-out error: the heap-served bytes
allocated (median 5.1 %, worst -17.9 % held out), the traced activations (5.4 %, -20.2 %) and the heap-served
bytes freed before the peak (9.8 %, +23.3 %); without the term the median is 11.9 %, the worst -33.0 %.
"""

from __future__ import annotations

import statistics
import tomllib
from collections.abc import Callable, Mapping
from functools import cache

from gpuconfig.core.paths import catalog_dir

NAME = "CPU heap kept by glibc (freed blocks pinned by the run's small objects)"
HEAP_FILE = "cpu_heap.toml"
# What the kept memory may be a share of: name -> the traced quantities it sums, at the workload's batch and length.
PREDICTORS: dict[str, tuple[str, ...]] = {
    "heap_freed": ("heap_freed_at_peak_bytes",),
    "heap_allocated": ("heap_allocated_bytes",),
    "activations": ("peak.activations", "peak.temporaries", "peak.inputs"),
}
# The traced quantities the predictors read, for the fit to carry (core/workload/estimate.py).
TRACED_KEYS = ("heap_freed_at_peak_bytes", "heap_allocated_bytes", "heap_live_at_peak_bytes", "heap_high_water_bytes")


def predictor_bytes(predictor: str, at: Callable[[str], float]) -> float:
    """The predictor's traced bytes, reading each quantity through `at(key)`."""
    return sum(at(key) for key in PREDICTORS[predictor])


def fit_share(cases: list[Mapping[str, float]]) -> float:
    """The median over cases of (measured - estimate without this term) / predictor bytes, at least 0: the
    share a held-out case is predicted with. Each case maps "measured", "unfitted" and "predictor"."""
    shares = [(c["measured"] - c["unfitted"]) / c["predictor"] for c in cases if c["predictor"] > 0]
    return max(0.0, statistics.median(shares)) if shares else 0.0


@cache
def measured_share() -> tuple[str, float, str] | None:
    """The predictor, its share and the source of both (catalog/cpu_heap.toml); None until
    benchmarks/estimate_accuracy_cpu.py has measured them."""
    path = catalog_dir() / HEAP_FILE
    if not path.is_file():
        return None
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    predictor = str(data.get("predictor", "activations"))
    if predictor not in PREDICTORS:
        return None
    return predictor, float(data["share"]), str(data["source"])


def kept_bytes(at: Callable[[str], float]) -> tuple[int, str] | None:
    """The bytes the heap keeps beyond the replayed tensors, and their source; None before they are measured."""
    measured = measured_share()
    if measured is None:
        return None
    predictor, share, source = measured
    return round(share * predictor_bytes(predictor, at)), source
